import { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { AccountEvent, Environment, Registration } from './account.events';

export interface ApiKeyState {
  readonly keyId: string;
  readonly environment: Environment;
  readonly revoked: boolean;
}

export interface Account {
  readonly accountId: string | null;
  readonly email: string | null;
  readonly walletIds: Readonly<Record<Environment, string>> | null;
  readonly keys: ReadonlyMap<string, ApiKeyState>;
}

export const initialState = (): Account => ({
  accountId: null,
  email: null,
  walletIds: null,
  keys: new Map(),
});

export function evolve(a: Account, e: AccountEvent): Account {
  switch (e.type) {
    case 'AccountRegistered':
      return {
        ...a,
        accountId: e.data.accountId,
        email: e.data.email,
        walletIds: { TEST: e.data.testWalletId, LIVE: e.data.liveWalletId },
      };
    case 'ApiKeyMinted':
      return {
        ...a,
        keys: new Map(a.keys).set(e.data.keyId, {
          keyId: e.data.keyId,
          environment: e.data.environment,
          revoked: false,
        }),
      };
    case 'ApiKeyRevoked': {
      const key = a.keys.get(e.data.keyId);
      return key ? { ...a, keys: new Map(a.keys).set(key.keyId, { ...key, revoked: true }) } : a;
    }
    default:
      return a;
  }
}

export const accountDecider: Decider<Account, AccountEvent> = { initialState, evolve };

type Decision = Result<AccountEvent[], DomainError>;

const accountMissing = () => new DomainError('not_found', 'account_not_found', 'No such account');

export function register(a: Account, cmd: Registration & { now: Date }): Decision {
  if (a.accountId !== null) return ok([]);
  const { now, ...data } = cmd;
  return ok([{ type: 'AccountRegistered', data: { ...data, registeredAt: now.toISOString() } }]);
}

export function mintKey(
  a: Account,
  cmd: { keyId: string; name: string; environment: Environment; keyHash: string; suffix: string; now: Date },
): Decision {
  if (a.accountId === null) return err(accountMissing());
  if (a.keys.has(cmd.keyId)) return ok([]);
  const { now, ...data } = cmd;
  return ok([{ type: 'ApiKeyMinted', data: { ...data, mintedAt: now.toISOString() } }]);
}

/** Revoking twice is a no-op; revoking a key of another account is "not found". */
export function revokeKey(a: Account, cmd: { keyId: string; now: Date }): Decision {
  const key = a.keys.get(cmd.keyId);
  if (a.accountId === null || !key)
    return err(new DomainError('not_found', 'resource_missing', 'No such API key', 'id'));
  if (key.revoked) return ok([]);
  return ok([{ type: 'ApiKeyRevoked', data: { keyId: cmd.keyId, revokedAt: cmd.now.toISOString() } }]);
}
