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

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

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

  /** Newest first. */
  keys(accountId: string, limit: number): Promise<ApiKeyListing[]> {
    return this.reads.list<ApiKeyListing>(ACCOUNT_KEYS, { partition: accountId, order: 'desc', limit });
  }

  key(keyId: string): Promise<ApiKeyListing | null> {
    return this.reads.get<ApiKeyListing>(ACCOUNT_KEYS, keyId);
  }
}
