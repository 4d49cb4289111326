import { Command } from '@nestjs/cqrs';
import type { ApiNumber } from '../../projections/compliance.projection';

/** The operator assigns a long number or short code to an account (`numbers:assign`); a later assignment moves it. */
export class AssignNumber extends Command<ApiNumber> {
  constructor(
    readonly number: string,
    readonly email: string,
  ) {
    super();
  }
}
