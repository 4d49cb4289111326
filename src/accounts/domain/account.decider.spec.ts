import { OPERATOR } from '../../shared/actor';
import { fold } from '../../shared/decider';
import { accountDecider, mintKey, register, revokeKey } from './account.decider';
import type { AccountEvent } from './account.events';
import { environmentOfKey, generateApiKey, hashApiKey, sameHash } from './api-key';
import { hashPassword, verifyPassword } from './password';

const now = new Date('2026-01-01T00:00:00Z');
const registration = {
  accountId: 'acct_1',
  email: 'a@b.co',
  passwordHash: 'h',
  testWalletId: 'wal_t',
  liveWalletId: 'wal_l',
};
const registered: AccountEvent = {
  type: 'AccountRegistered',
  data: { ...registration, registeredAt: now.toISOString() },
};
const minted: AccountEvent = {
  type: 'ApiKeyMinted',
  data: {
    keyId: 'key_1',
    name: 'n',
    environment: 'TEST',
    keyHash: 'ab',
    suffix: 'wxyz',
    scope: 'full',
    allowedIps: [],
    actor: OPERATOR,
    mintedAt: now.toISOString(),
  },
};
const given = (...events: AccountEvent[]) => fold(accountDecider, events);

describe('account decider', () => {
  it('registers once', () => {
    expect(register(given(), { ...registration, now })).toEqual({ ok: true, value: [registered] });
    expect(register(given(registered), { ...registration, now })).toEqual({ ok: true, value: [] });
  });

  it('mints a key for an existing account, idempotent per key id', () => {
    const { keyId, name, environment, keyHash, suffix } = minted.data as Extract<
      AccountEvent,
      { type: 'ApiKeyMinted' }
    >['data'];
    const cmd = {
      keyId,
      name,
      environment,
      keyHash,
      suffix,
      scope: 'full' as const,
      allowedIps: [],
      actor: OPERATOR,
      now,
    };
    expect(mintKey(given(registered), cmd)).toEqual({ ok: true, value: [minted] });
    expect(mintKey(given(registered, minted), cmd)).toEqual({ ok: true, value: [] });
    expect(mintKey(given(), cmd)).toMatchObject({ ok: false, error: { code: 'account_not_found' } });
  });

  it('revokes a key once; an unknown key is not found', () => {
    const revoked = {
      type: 'ApiKeyRevoked',
      data: { keyId: 'key_1', revokedAt: now.toISOString(), actor: OPERATOR },
    };
    expect(revokeKey(given(registered, minted), { keyId: 'key_1', actor: OPERATOR, now })).toEqual({
      ok: true,
      value: [revoked],
    });
    expect(
      revokeKey(given(registered, minted, revoked as AccountEvent), { keyId: 'key_1', actor: OPERATOR, now }),
    ).toEqual({
      ok: true,
      value: [],
    });
    expect(revokeKey(given(registered), { keyId: 'key_2', actor: OPERATOR, now })).toMatchObject({
      ok: false,
      error: { kind: 'not_found' },
    });
  });
});

describe('API keys', () => {
  it('have the environment prefix, 40 random characters, and are stored only as SHA-256', () => {
    const key = generateApiKey('LIVE');
    expect(key.key).toMatch(/^sms_live_[0-9A-Za-z]{40}$/);
    expect(key.hash).toBe(hashApiKey(key.key));
    expect(key.hash).not.toContain(key.key.slice(9));
    expect(environmentOfKey(key.key)).toBe('LIVE');
    expect(environmentOfKey('sms_live_short')).toBeNull();
    expect(sameHash(key.hash, hashApiKey(key.key))).toBe(true);
    expect(sameHash(key.hash, hashApiKey('other'))).toBe(false);
  });
});

describe('passwords', () => {
  it('are hashed with scrypt and verified in constant time', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('wrong horse battery', stored)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });
});
