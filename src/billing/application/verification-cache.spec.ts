import type { VerifiedPayment } from '../ports/payment-provider.port';
import { VerificationCache } from './verification-cache';

const pending: VerifiedPayment = {
  reference: 'chk_1',
  status: 'pending',
  amount: 0,
  currency: '',
  reason: null,
};

describe('VerificationCache', () => {
  it('asks the provider once per checkout within the time to live, then again', async () => {
    let now = 0;
    const cache = new VerificationCache(5_000, () => now);
    const ask = jest.fn(async () => pending);
    await Promise.all([cache.verify('chk_1', ask), cache.verify('chk_1', ask), cache.verify('chk_1', ask)]);
    now = 4_999;
    await cache.verify('chk_1', ask);
    expect(ask).toHaveBeenCalledTimes(1);
    await cache.verify('chk_2', ask);
    expect(ask).toHaveBeenCalledTimes(2);
    now = 5_000;
    await cache.verify('chk_1', ask);
    expect(ask).toHaveBeenCalledTimes(3);
  });

  it('does not remember a failed call', async () => {
    const cache = new VerificationCache(5_000, () => 0);
    const failing = jest.fn(async (): Promise<VerifiedPayment> => {
      throw new Error('down');
    });
    await expect(cache.verify('chk_1', failing)).rejects.toThrow('down');
    await new Promise((resolve) => setImmediate(resolve));
    const ask = jest.fn(async () => pending);
    await expect(cache.verify('chk_1', ask)).resolves.toBe(pending);
    expect(ask).toHaveBeenCalledTimes(1);
  });
});
