import type { Principal } from './queries/principal-by-api-key.query';
import { RecentPrincipals } from './recent-principals';

const principal: Principal = {
  keyId: 'key_1',
  accountId: 'acc_1',
  environment: 'TEST',
  walletId: 'wal_1',
  scope: 'full',
  allowedIps: [],
};

describe('RecentPrincipals', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a remembered key until it is forgotten', () => {
    const recent = new RecentPrincipals();
    recent.remember('hash', principal);
    expect(recent.find('hash')).toBe(principal);
    recent.forget('hash');
    expect(recent.find('hash')).toBeUndefined();
  });

  it('ages entries out, so a revocation made elsewhere takes effect', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const recent = new RecentPrincipals();
    recent.remember('hash', principal);
    jest.setSystemTime(1_000_000 + RecentPrincipals.MAX_AGE_MS - 1);
    expect(recent.find('hash')).toBe(principal);
    jest.setSystemTime(1_000_000 + RecentPrincipals.MAX_AGE_MS);
    expect(recent.find('hash')).toBeUndefined();
  });
});
