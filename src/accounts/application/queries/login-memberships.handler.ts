import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { MembershipView } from '../../projections/members.projection';
import { AccountReader } from '../account-reader';
import { LoginMemberships } from './login-memberships.query';

@QueryHandler(LoginMemberships)
export class LoginMembershipsHandler implements IQueryHandler<LoginMemberships, MembershipView[]> {
  constructor(private readonly accounts: AccountReader) {}

  execute({ email }: LoginMemberships): Promise<MembershipView[]> {
    return this.accounts.memberships(email);
  }
}
