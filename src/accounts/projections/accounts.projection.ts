import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { AccountEvent, EmailClaimed, Environment } from '../domain/account.events';

export const ACCOUNTS = 'accounts';
export const ACCOUNT_EMAILS = 'account-emails';
/** API keys by the SHA-256 of the key: what the Bearer guard looks up. */
export const API_KEYS = 'api-keys';
/** API keys by id, listed per account. */
export const ACCOUNT_KEYS = 'account-keys';

export interface AccountView {
  readonly id: string;
  readonly object: 'account';
  readonly email: string;
  readonly wallets: Readonly<Record<Environment, string>>;
  readonly created_at: string;
}

export interface EmailView {
  readonly accountId: string;
  readonly passwordHash: string;
}

export interface ApiKeyPrincipal {
  readonly keyId: string;
  readonly keyHash: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly walletId: string;
  readonly revoked: boolean;
}

export interface ApiKeyListing {
  readonly id: string;
  readonly object: 'api_key';
  readonly accountId: string;
  readonly name: string;
  readonly environment: Environment;
  readonly suffix: string;
  readonly created_at: string;
  readonly revoked_at: string | null;
  readonly keyHash: string;
}

/** Accounts, sign-in emails and the key index, from the account and email streams. */
export const accountsProjection: Projection = {
  name: 'accounts',
  collections: [ACCOUNTS, ACCOUNT_EMAILS, API_KEYS, ACCOUNT_KEYS],
  filter: { streamPrefixes: ['account-', 'email-'] },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as AccountEvent | EmailClaimed;
    switch (event.type) {
      case 'EmailClaimed':
        // The claim, not the account stream, decides who owns an email.
        view.put(ACCOUNT_EMAILS, event.data.email, {
          accountId: event.data.accountId,
          passwordHash: event.data.passwordHash,
        });
        return;
      case 'AccountRegistered':
        view.put(ACCOUNTS, event.data.accountId, {
          id: event.data.accountId,
          object: 'account',
          email: event.data.email,
          wallets: { TEST: event.data.testWalletId, LIVE: event.data.liveWalletId },
          created_at: event.data.registeredAt,
        } satisfies AccountView);
        return;
      case 'ApiKeyMinted': {
        const accountId = recorded.streamId.slice('account-'.length);
        const owner = await view.get<AccountView>(ACCOUNTS, accountId);
        if (!owner) return;
        const principal: ApiKeyPrincipal = {
          keyId: event.data.keyId,
          keyHash: event.data.keyHash,
          accountId,
          environment: event.data.environment,
          walletId: owner.wallets[event.data.environment],
          revoked: false,
        };
        view.put(API_KEYS, event.data.keyHash, principal);
        const listing: ApiKeyListing = {
          id: event.data.keyId,
          object: 'api_key',
          accountId,
          name: event.data.name,
          environment: event.data.environment,
          suffix: event.data.suffix,
          created_at: event.data.mintedAt,
          revoked_at: null,
          keyHash: event.data.keyHash,
        };
        view.put(ACCOUNT_KEYS, event.data.keyId, listing, {
          partition: accountId,
          sort: `${event.data.mintedAt}|${event.data.keyId}`,
        });
        return;
      }
      case 'PasswordChanged': {
        const account = await view.get<AccountView>(ACCOUNTS, recorded.streamId.slice('account-'.length));
        if (!account) return;
        view.put(ACCOUNT_EMAILS, account.email, {
          accountId: account.id,
          passwordHash: event.data.passwordHash,
        });
        return;
      }
      case 'ApiKeyRevoked': {
        const listing = await view.get<ApiKeyListing>(ACCOUNT_KEYS, event.data.keyId);
        if (!listing) return;
        view.put(
          ACCOUNT_KEYS,
          listing.id,
          { ...listing, revoked_at: event.data.revokedAt },
          {
            partition: listing.accountId,
            sort: `${listing.created_at}|${listing.id}`,
          },
        );
        const principal = await view.get<ApiKeyPrincipal>(API_KEYS, listing.keyHash);
        if (principal) view.put(API_KEYS, listing.keyHash, { ...principal, revoked: true });
        return;
      }
    }
  },
};
