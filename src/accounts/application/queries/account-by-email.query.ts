import { Query } from '@nestjs/cqrs';
import type { AccountView } from '../../projections/accounts.projection';

/** The account signed up with this email (case and surrounding spaces ignored), or null. */
export class AccountByEmail extends Query<AccountView | null> {
  constructor(readonly email: string) {
    super();
  }
}
