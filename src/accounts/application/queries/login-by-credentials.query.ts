import { Query } from '@nestjs/cqrs';
import type { MembershipView } from '../../projections/members.projection';

export interface SignedInLogin {
  readonly loginId: string;
  readonly email: string;
  /** The accounts the login belongs to, in the order it joined them. */
  readonly memberships: readonly MembershipView[];
}

/**
 * The login when the password matches its e-mail, with its accounts; null otherwise, without
 * saying which part was wrong (the same work is done either way).
 */
export class LoginByCredentials extends Query<SignedInLogin | null> {
  constructor(
    readonly email: string,
    readonly password: string,
  ) {
    super();
  }
}
