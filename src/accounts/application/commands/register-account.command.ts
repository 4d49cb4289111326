import { Command } from '@nestjs/cqrs';
import type { AccountView } from '../../projections/accounts.projection';

/** Sign up (console sign-up, `accounts:create`): the email is unique even when sign-ups race. */
export class RegisterAccount extends Command<AccountView> {
  constructor(
    readonly email: string,
    readonly password: string,
  ) {
    super();
  }
}
