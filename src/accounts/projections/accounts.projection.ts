import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type {
  AccountEvent,
  EmailClaimed,
  Environment,
  KeyScope,
  LoginCreated,
  PasswordChanged,
} from '../domain/account.events';
import type { ApiKeyUsed } from '../domain/api-key-usage.events';

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

/** A login: the e-mail's password, and where it is kept. */
export interface EmailView {
  /** The account the login registered (null for a login made by accepting an invitation). */
  readonly accountId: string | null;
  readonly passwordHash: string;
  /**
   * Whose password it is: the registered account's id (its stream keeps the password), or the
   * `usr_` id of a login made by accepting an invitation. Absent on documents from before teams.
   */
  readonly loginId?: string;
}

/** A login's id (see EmailView.loginId). */
export const loginIdOf = (login: EmailView): string => login.loginId ?? (login.accountId as string);

export interface ApiKeyPrincipal {
  readonly keyId: string;
  readonly keyHash: string;
  readonly accountId: string;
  readonly environment: Environment;
  readonly walletId: string;
  readonly revoked: boolean;
  /** Absent on keys from before scopes: `full`, from anywhere. */
  readonly scope?: KeyScope;
  readonly allowedIps?: readonly string[];
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
  readonly scope?: KeyScope;
  readonly allowed_ips?: readonly string[];
  readonly last_used_at?: string | null;
}

const keySort = (listing: ApiKeyListing) => ({
  partition: listing.accountId,
  sort: `${listing.created_at}|${listing.id}`,
});

/** A new password: the login's document keeps where it lives, and takes the new hash. */
async function passwordChanged(recorded: RecordedEvent, event: PasswordChanged, view: ProjectionView) {
  let email = event.data.email;
  if (!email && recorded.streamId.startsWith('account-')) {
    // Before teams a password change named no e-mail: it was the account's own login's.
    email = (await view.get<AccountView>(ACCOUNTS, recorded.streamId.slice('account-'.length)))?.email;
  }
  if (!email) return;
  const login = await view.get<EmailView>(ACCOUNT_EMAILS, email);
  if (!login) return;
  view.put(ACCOUNT_EMAILS, email, {
    ...login,
    loginId: loginIdOf(login),
    passwordHash: event.data.passwordHash,
  });
}

/** Accounts, sign-in emails and the key index, from the account, email and key-usage streams. */
export const accountsProjection: Projection = {
  name: 'accounts',
  collections: [ACCOUNTS, ACCOUNT_EMAILS, API_KEYS, ACCOUNT_KEYS],
  filter: { streamPrefixes: ['account-', 'email-', 'api-key-usage-'] },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as AccountEvent | EmailClaimed | LoginCreated | ApiKeyUsed;
    switch (event.type) {
      case 'EmailClaimed':
        // The claim, not the account stream, decides who owns an email.
        view.put(ACCOUNT_EMAILS, event.data.email, {
          accountId: event.data.accountId,
          passwordHash: event.data.passwordHash,
          loginId: event.data.accountId,
        } satisfies EmailView);
        return;
      case 'LoginCreated':
        view.put(ACCOUNT_EMAILS, event.data.email, {
          accountId: null,
          passwordHash: event.data.passwordHash,
          loginId: event.data.userId,
        } satisfies EmailView);
        return;
      case 'ApiKeyUsed': {
        const listing = await view.get<ApiKeyListing>(ACCOUNT_KEYS, event.data.keyId);
        // Two processes may each record a use in the same minute, in either order: keep the newest.
        if (!listing || (listing.last_used_at && listing.last_used_at >= event.data.usedAt)) return;
        view.put(ACCOUNT_KEYS, listing.id, { ...listing, last_used_at: event.data.usedAt }, keySort(listing));
        return;
      }
      case 'OwnershipTransferred': {
        // The owner's e-mail is the account's: its mails go there.
        const account = await view.get<AccountView>(ACCOUNTS, recorded.streamId.slice('account-'.length));
        if (account)
          view.put(ACCOUNTS, account.id, { ...account, email: event.data.email } satisfies AccountView);
        return;
      }
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
          scope: event.data.scope ?? 'full',
          allowedIps: event.data.allowedIps ?? [],
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
          scope: event.data.scope ?? 'full',
          allowed_ips: event.data.allowedIps ?? [],
          last_used_at: null,
        };
        view.put(ACCOUNT_KEYS, event.data.keyId, listing, keySort(listing));
        return;
      }
      case 'PasswordChanged':
        return passwordChanged(recorded, event, view);
      case 'ApiKeyRevoked': {
        const listing = await view.get<ApiKeyListing>(ACCOUNT_KEYS, event.data.keyId);
        if (!listing) return;
        view.put(
          ACCOUNT_KEYS,
          listing.id,
          { ...listing, revoked_at: event.data.revokedAt },
          keySort(listing),
        );
        const principal = await view.get<ApiKeyPrincipal>(API_KEYS, listing.keyHash);
        if (principal) view.put(API_KEYS, listing.keyHash, { ...principal, revoked: true });
        return;
      }
    }
  },
};
