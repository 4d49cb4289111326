import { TestPaymentProvider, type TestPaymentOutcome } from './test-payment-provider.adapter';

describe('TestPaymentProvider', () => {
  const outcomes = new Map<string, TestPaymentOutcome>();
  const provider = new TestPaymentProvider({ lookup: async (ref) => outcomes.get(ref) ?? null });

  it('is named test and has the hosted page take the payment', async () => {
    expect(provider.name).toBe('test');
    const started = await provider.startPayment({
      checkoutId: 'chk_1',
      reference: 'pay_t1',
      amount: 5000,
      currency: 'GHS',
      callbackUrl: 'http://127.0.0.1/return',
      email: 'm@example.com',
    });
    expect(started).toEqual({ redirectUrl: null, reference: 'pay_t1' });
  });

  it('is pending until the hosted page decided, then reports the recorded outcome', async () => {
    expect(await provider.verifyPayment('pay_t2')).toEqual({
      reference: 'pay_t2',
      status: 'pending',
      amount: 0,
      currency: '',
      reason: null,
    });
    outcomes.set('pay_t2', { status: 'succeeded', amount: 5000, currency: 'GHS' });
    expect(await provider.verifyPayment('pay_t2')).toEqual({
      reference: 'pay_t2',
      status: 'succeeded',
      amount: 5000,
      currency: 'GHS',
      reason: null,
    });
    outcomes.set('pay_t3', { status: 'failed', amount: 5000, currency: 'GHS' });
    expect(await provider.verifyPayment('pay_t3')).toMatchObject({
      status: 'failed',
      reason: expect.any(String),
    });
  });

  it('is stateless: a fresh instance over the same record answers the same (restart)', async () => {
    outcomes.set('pay_t4', { status: 'succeeded', amount: 1000, currency: 'GHS' });
    const afterRestart = new TestPaymentProvider({ lookup: async (ref) => outcomes.get(ref) ?? null });
    expect((await afterRestart.verifyPayment('pay_t4')).status).toBe('succeeded');
  });

  it('propagates lookup failures (unknown, try later)', async () => {
    const broken = new TestPaymentProvider({
      lookup: async () => {
        throw new Error('store down');
      },
    });
    await expect(broken.verifyPayment('pay_t5')).rejects.toThrow('store down');
  });

  it('has no webhooks', () => {
    expect(provider.parseWebhook()).toEqual({ accepted: false, reason: 'malformed' });
  });
});
