import { Query } from '@nestjs/cqrs';
import type { AccountView } from '../../projections/accounts.projection';

/** The account when the password matches its email; null otherwise, without saying which part was wrong. */
export class AccountByCredentials extends Query<AccountView | null> {
  constructor(
    readonly email: string,
    readonly password: string,
  ) {
    super();
  }
}
