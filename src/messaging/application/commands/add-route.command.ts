import { Command } from '@nestjs/cqrs';
import type { Route } from '../../domain/routing';

/** The operator's route for a destination prefix (`routes:add`): sendable at once, no restart. */
export class AddRoute extends Command<Route> {
  constructor(
    readonly prefix: unknown,
    readonly carrier: unknown,
  ) {
    super();
  }
}
