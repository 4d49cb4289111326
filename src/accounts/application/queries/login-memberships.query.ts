import { Query } from '@nestjs/cqrs';
import type { MembershipView } from '../../projections/members.projection';

/** The accounts an e-mail's login belongs to (the console's account switcher). */
export class LoginMemberships extends Query<MembershipView[]> {
  constructor(readonly email: string) {
    super();
  }
}
