import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import {
  ACCOUNT_EMAILS,
  ACCOUNT_KEYS,
  ACCOUNTS,
  AccountView,
  ApiKeyListing,
  EmailView,
} from '../projections/accounts.projection';

import { normaliseEmail } from '../domain/email';
import {
  ACCOUNT_INVITATIONS,
  ACCOUNT_MEMBERS,
  InvitationView,
  LOGIN_MEMBERSHIPS,
  MembershipView,
  MemberView,
} from '../projections/members.projection';

export { normaliseEmail };

/** Members and invitations an account's page lists at most. */
const MAX_LISTED = 1000;

/** The accounts read model, as the accounts queries and the console's guard read it. */
@Injectable()
export class AccountReader {
  constructor(@Inject(READ_STORE) private readonly reads: ReadStore) {}

  byId(accountId: string): Promise<AccountView | null> {
    return this.reads.get<AccountView>(ACCOUNTS, accountId);
  }

  byEmail(email: string): Promise<EmailView | null> {
    return this.reads.get<EmailView>(ACCOUNT_EMAILS, normaliseEmail(email));
  }

  /** The account the e-mail's login registered (null for none, or a login made by an invitation). */
  async registeredBy(email: string): Promise<AccountView | null> {
    const login = await this.byEmail(email);
    return login?.accountId ? this.byId(login.accountId) : null;
  }

  /** Newest first. */
  keys(accountId: string, limit: number): Promise<ApiKeyListing[]> {
    return this.reads.list<ApiKeyListing>(ACCOUNT_KEYS, { partition: accountId, order: 'desc', limit });
  }

  key(keyId: string): Promise<ApiKeyListing | null> {
    return this.reads.get<ApiKeyListing>(ACCOUNT_KEYS, keyId);
  }

  member(memberId: string): Promise<MemberView | null> {
    return this.reads.get<MemberView>(ACCOUNT_MEMBERS, memberId);
  }

  /** The account's members, in the order they joined. */
  members(accountId: string): Promise<MemberView[]> {
    return this.reads.list<MemberView>(ACCOUNT_MEMBERS, {
      partition: accountId,
      order: 'asc',
      limit: MAX_LISTED,
    });
  }

  /** The account's invitations, newest first. */
  invitations(accountId: string): Promise<InvitationView[]> {
    return this.reads.list<InvitationView>(ACCOUNT_INVITATIONS, {
      partition: accountId,
      order: 'desc',
      limit: MAX_LISTED,
    });
  }

  /** The accounts this e-mail's login belongs to, in the order it joined them. */
  memberships(email: string): Promise<MembershipView[]> {
    return this.reads.list<MembershipView>(LOGIN_MEMBERSHIPS, {
      partition: normaliseEmail(email),
      order: 'asc',
      limit: MAX_LISTED,
    });
  }
}
