import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { DomainError } from '../../../shared/domain-error';
import { paymentMatches } from '../payment-match';
import {
  chargeSuccessEvent,
  FakePaystackServer,
  signedPaystackWebhook,
  signPaystackBody,
} from './fake-paystack-server.test-support';
import {
  mapPaystackStatus,
  PaystackPaymentProvider,
  PaystackRequestError,
} from './paystack-payment-provider.adapter';

const SECRET = 'sk_test_5ecret0000000000000000000000000000000';
const OTHER_SECRET = 'sk_test_0ther0000000000000000000000000000000';

const startInput = (reference: string, overrides: Partial<{ amount: number; currency: string }> = {}) => ({
  checkoutId: 'chk_123',
  reference,
  amount: overrides.amount ?? 5000,
  currency: overrides.currency ?? 'GHS',
  callbackUrl: 'http://127.0.0.1:3000/billing/checkout/chk_123/return',
  email: 'merchant@example.com',
});

/** Runs `fn`, expects it to throw, and returns the error. */
async function thrown(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

function expectNoSecret(err: Error, ...secrets: string[]): void {
  for (const secret of secrets) {
    expect(err.message).not.toContain(secret);
    expect(String(err)).not.toContain(secret);
    expect(err.stack ?? '').not.toContain(secret);
  }
}

describe('PaystackPaymentProvider', () => {
  const fake = new FakePaystackServer({ secretKey: SECRET });
  let provider: PaystackPaymentProvider;

  beforeAll(async () => {
    const baseUrl = await fake.start();
    provider = new PaystackPaymentProvider({ secretKey: SECRET, baseUrl, timeoutMs: 10_000 });
  });

  afterAll(async () => {
    await fake.close();
  });

  beforeEach(() => fake.reset());

  describe('construction', () => {
    it('is named paystack and requires a secret key', () => {
      expect(provider.name).toBe('paystack');
      expect(() => new PaystackPaymentProvider({ secretKey: '' })).toThrow(/secretKey is required/);
      expect(() => new PaystackPaymentProvider({ secretKey: SECRET, timeoutMs: 0 })).toThrow(/timeoutMs/);
    });

    it('does not reveal the secret key when inspected or serialized', () => {
      expect(inspect(provider, { depth: 5, showHidden: true })).not.toContain(SECRET);
      expect(JSON.stringify(provider)).not.toContain(SECRET);
    });
  });

  describe('startPayment (POST /transaction/initialize)', () => {
    it('sends amount in pesewas, GHS, reference, callback_url and the Bearer secret; returns the redirect URL', async () => {
      const started = await provider.startPayment(startInput('pay_init_1'));

      expect(started).toEqual({
        redirectUrl: expect.stringMatching(/^https:\/\/checkout\.paystack\.com\//),
        reference: 'pay_init_1',
      });
      expect(fake.requests).toHaveLength(1);
      const req = fake.requests[0];
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/transaction/initialize');
      expect(req.authorization).toBe(`Bearer ${SECRET}`);
      expect(req.contentType).toMatch(/^application\/json/);
      expect(req.body).toMatchObject({
        email: 'merchant@example.com',
        amount: 5000,
        currency: 'GHS',
        reference: 'pay_init_1',
        callback_url: 'http://127.0.0.1:3000/billing/checkout/chk_123/return',
      });
      expect(Number.isInteger((req.body as { amount: unknown }).amount)).toBe(true);
    });

    it('tolerates a trailing slash on baseUrl', async () => {
      const p = new PaystackPaymentProvider({ secretKey: SECRET, baseUrl: `${fake.baseUrl}/` });
      await p.startPayment(startInput('pay_init_slash'));
      expect(fake.requests[0].path).toBe('/transaction/initialize');
    });

    it('refuses non-integer or non-positive amounts without calling Paystack', async () => {
      await expect(provider.startPayment(startInput('pay_bad_1', { amount: 50.5 }))).rejects.toThrow(
        /amount/,
      );
      await expect(provider.startPayment(startInput('pay_bad_2', { amount: 0 }))).rejects.toThrow(/amount/);
      expect(fake.requests).toHaveLength(0);
    });

    it('throws when Paystack refuses (duplicate reference)', async () => {
      await provider.startPayment(startInput('pay_dup'));
      const err = await thrown(() => provider.startPayment(startInput('pay_dup')));
      expect(err).toBeInstanceOf(PaystackRequestError);
      expect(err.message).toMatch(/HTTP 400.*Duplicate Transaction Reference/);
    });
  });

  describe('chargeCard (POST /transaction/charge_authorization)', () => {
    const afterThis: (() => void)[] = [];
    afterEach(() => afterThis.splice(0).forEach((undo) => undo()));
    const card = {
      authorizationCode: 'AUTH_saved',
      brand: 'visa',
      last4: '4081',
      expMonth: '12',
      expYear: '2030',
      email: 'merchant@example.com',
    };
    const charge = (reference: string) =>
      provider.chargeCard({ reference, card, amount: 20000, currency: 'GHS', checkoutId: 'chk_1' });

    it('charges the saved authorization with its e-mail, amount and our reference', async () => {
      const charged = await charge('chk_charge_1');
      expect(charged).toMatchObject({
        reference: 'chk_charge_1',
        status: 'succeeded',
        amount: 20000,
        currency: 'GHS',
      });
      const req = fake.requests.find((r) => r.path === '/transaction/charge_authorization')!;
      expect(req.body).toMatchObject({
        authorization_code: 'AUTH_saved',
        email: 'merchant@example.com',
        amount: 20000,
        currency: 'GHS',
        reference: 'chk_charge_1',
      });
    });

    it('answers a declined charge as failed, with the gateway reason', async () => {
      fake.behaviour = 'charge-declined';
      expect(await charge('chk_charge_2')).toMatchObject({ status: 'failed', reason: 'failed: Declined' });
    });

    it('leaves a charge that times out unknown (thrown), never failed', async () => {
      fake.behaviour = 'slow';
      const slowMs = fake.slowMs;
      fake.slowMs = 300;
      afterThis.push(() => (fake.slowMs = slowMs));
      const slow = new PaystackPaymentProvider({ secretKey: SECRET, baseUrl: fake.baseUrl, timeoutMs: 100 });
      await expect(
        slow.chargeCard({ reference: 'chk_charge_3', card, amount: 1, currency: 'GHS', checkoutId: 'c' }),
      ).rejects.toBeInstanceOf(PaystackRequestError);
      // Paystack went on with it: the charge is there when its (late) answer is ready.
      while (fake.charges.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(fake.charges.map((c) => c.reference)).toEqual(['chk_charge_3']);
    });
  });

  describe('verifyPayment (GET /transaction/verify/:reference)', () => {
    it('maps a successful transaction with its amount and currency', async () => {
      await provider.startPayment(startInput('pay_ok_1'));
      const verified = await provider.verifyPayment('pay_ok_1');

      expect(verified).toEqual({
        reference: 'pay_ok_1',
        status: 'succeeded',
        amount: 5000,
        currency: 'GHS',
        reason: null,
        // Paystack's reusable authorization, kept for auto top-up.
        card: {
          authorizationCode: expect.stringMatching(/^AUTH_/),
          brand: 'visa',
          last4: '4081',
          expMonth: '12',
          expYear: '2030',
          email: 'merchant@example.com',
        },
      });
      const req = fake.requests[1];
      expect(req.method).toBe('GET');
      expect(req.path).toBe('/transaction/verify/pay_ok_1');
      expect(req.authorization).toBe(`Bearer ${SECRET}`);
      expect(paymentMatches(verified, { amount: 5000, currency: 'GHS' })).toBe(true);
    });

    it('url-encodes the reference', async () => {
      fake.addTransaction({ reference: 'pay/odd ref', amount: 100 });
      const verified = await provider.verifyPayment('pay/odd ref');
      expect(verified.reference).toBe('pay/odd ref');
      expect(fake.requests[0].path).toBe('/transaction/verify/pay%2Fodd%20ref');
    });

    it('reports a failed transaction with the gateway reason', async () => {
      fake.addTransaction({ reference: 'pay_fail_1', amount: 5000 });
      fake.behaviour = 'verify-failed';
      const verified = await provider.verifyPayment('pay_fail_1');
      expect(verified.status).toBe('failed');
      expect(verified.reason).toContain('Declined');
    });

    it('maps abandoned (initialized, not paid yet) and ongoing to pending', async () => {
      fake.addTransaction({ reference: 'pay_ab_1', amount: 5000 });
      fake.behaviour = 'verify-abandoned';
      const abandoned = await provider.verifyPayment('pay_ab_1');
      expect(abandoned.status).toBe('pending');
      expect(abandoned.reason).toBeNull();
      fake.behaviour = 'verify-pending';
      const pending = await provider.verifyPayment('pay_ab_1');
      expect(pending.status).toBe('pending');
      expect(pending.reason).toBeNull();
    });

    it('reports an amount mismatch faithfully (and paymentMatches says no)', async () => {
      await provider.startPayment(startInput('pay_mis_1', { amount: 5000 }));
      fake.behaviour = 'amount-mismatch';
      fake.mismatchAmount = 50;
      const verified = await provider.verifyPayment('pay_mis_1');
      expect(verified.status).toBe('succeeded');
      expect(verified.amount).toBe(50);
      expect(verified.currency).toBe('GHS');
      expect(paymentMatches(verified, { amount: 5000, currency: 'GHS' })).toBe(false);
    });

    it('reports a currency mismatch faithfully (and paymentMatches says no)', async () => {
      await provider.startPayment(startInput('pay_mis_2', { amount: 5000 }));
      fake.behaviour = 'currency-mismatch';
      const verified = await provider.verifyPayment('pay_mis_2');
      expect(verified.status).toBe('succeeded');
      expect(verified.amount).toBe(5000);
      expect(verified.currency).toBe('NGN');
      expect(paymentMatches(verified, { amount: 5000, currency: 'GHS' })).toBe(false);
    });

    it('throws on an unknown reference (Paystack answers 400)', async () => {
      const err = await thrown(() => provider.verifyPayment('pay_nope'));
      expect(err).toBeInstanceOf(PaystackRequestError);
      expect(err.message).toMatch(/HTTP 400/);
    });
  });

  describe('errors are thrown (outcome unknown), never DomainErrors, never carry the key', () => {
    it('throws on HTTP 500 without leaking the key Paystack echoed back', async () => {
      fake.addTransaction({ reference: 'pay_500', amount: 5000 });
      fake.behaviour = 'http-500';
      for (const call of [
        () => provider.verifyPayment('pay_500'),
        () => provider.startPayment(startInput('pay_500b')),
      ]) {
        const err = await thrown(call);
        expect(err).toBeInstanceOf(PaystackRequestError);
        expect(err).not.toBeInstanceOf(DomainError);
        expect(err.message).toMatch(/HTTP 500/);
        expect((err as PaystackRequestError).httpStatus).toBe(500);
        expectNoSecret(err, SECRET);
      }
      // the fake really did echo it, so the redaction was exercised
      expect(fake.requests.every((r) => r.authorization === `Bearer ${SECRET}`)).toBe(true);
    });

    it('throws on status false and on a non-JSON body', async () => {
      fake.addTransaction({ reference: 'pay_sf', amount: 5000 });
      fake.behaviour = 'status-false';
      const e1 = await thrown(() => provider.verifyPayment('pay_sf'));
      expect(e1).toBeInstanceOf(PaystackRequestError);
      expect(e1.message).toMatch(/status false/);

      fake.behaviour = 'non-json';
      const e2 = await thrown(() => provider.verifyPayment('pay_sf'));
      expect(e2).toBeInstanceOf(PaystackRequestError);
      expect(e2.message).toMatch(/non-JSON/);
      expectNoSecret(e1, SECRET);
      expectNoSecret(e2, SECRET);
    });

    it('throws a timeout error when Paystack is too slow', async () => {
      fake.addTransaction({ reference: 'pay_slow', amount: 5000 });
      fake.behaviour = 'slow';
      fake.slowMs = 30_000;
      const quick = new PaystackPaymentProvider({ secretKey: SECRET, baseUrl: fake.baseUrl, timeoutMs: 500 });
      const err = await thrown(() => quick.verifyPayment('pay_slow'));
      expect(err).toBeInstanceOf(PaystackRequestError);
      expect(err.message).toMatch(/timed out after 500 ms/);
      expectNoSecret(err, SECRET);
      const err2 = await thrown(() => quick.startPayment(startInput('pay_slow_2')));
      expect(err2.message).toMatch(/initialize timed out/);
    });

    it('throws when the key is rejected, without echoing the key', async () => {
      const wrong = new PaystackPaymentProvider({ secretKey: OTHER_SECRET, baseUrl: fake.baseUrl });
      const err = await thrown(() => wrong.startPayment(startInput('pay_401')));
      expect(err).toBeInstanceOf(PaystackRequestError);
      expect(err.message).toMatch(/HTTP 401.*Invalid key/);
      expectNoSecret(err, OTHER_SECRET, SECRET);
    });

    it('throws when nothing listens', async () => {
      const closedPort = await new Promise<number>((resolve) => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
          const port = (s.address() as AddressInfo).port;
          s.close(() => resolve(port));
        });
      });
      const down = new PaystackPaymentProvider({
        secretKey: SECRET,
        baseUrl: `http://127.0.0.1:${closedPort}`,
        timeoutMs: 5_000,
      });
      const err = await thrown(() => down.verifyPayment('pay_down'));
      expect(err).toBeInstanceOf(PaystackRequestError);
      expect(err.message).toMatch(/verify request failed/);
      expectNoSecret(err, SECRET);
    });
  });

  describe('parseWebhook', () => {
    it('accepts a correctly signed charge.success and names its reference', () => {
      const { rawBody, headers } = signedPaystackWebhook(SECRET, chargeSuccessEvent('pay_wh_1', 5000));
      expect(provider.parseWebhook(rawBody, headers)).toEqual({
        accepted: true,
        event: 'charge.success',
        reference: 'pay_wh_1',
      });
    });

    it('accepts the header whatever its case, and upper-case hex', () => {
      const { rawBody, signature } = signedPaystackWebhook(SECRET, chargeSuccessEvent('pay_wh_2', 5000));
      expect(
        provider.parseWebhook(rawBody, { 'X-Paystack-Signature': signature.toUpperCase() }),
      ).toMatchObject({
        accepted: true,
        reference: 'pay_wh_2',
      });
    });

    it('checks the raw bytes, not a re-serialization', () => {
      // Same JSON value, different bytes (spacing): only the exact signed bytes pass.
      const raw = Buffer.from('{ "event": "charge.success", "data": { "reference": "pay_wh_3" } }');
      const signature = signPaystackBody(SECRET, raw);
      expect(provider.parseWebhook(raw, { 'x-paystack-signature': signature }).accepted).toBe(true);
      const reserialized = Buffer.from(JSON.stringify(JSON.parse(raw.toString())));
      expect(provider.parseWebhook(reserialized, { 'x-paystack-signature': signature })).toEqual({
        accepted: false,
        reason: 'bad_signature',
      });
    });

    it('rejects a tampered body', () => {
      const { rawBody, headers } = signedPaystackWebhook(SECRET, chargeSuccessEvent('pay_wh_4', 5000));
      const tampered = Buffer.from(rawBody.toString().replace('5000', '9999999'));
      expect(provider.parseWebhook(tampered, headers)).toEqual({ accepted: false, reason: 'bad_signature' });
    });

    it('rejects a body signed with another secret', () => {
      const { rawBody, headers } = signedPaystackWebhook(OTHER_SECRET, chargeSuccessEvent('pay_wh_5', 5000));
      expect(provider.parseWebhook(rawBody, headers)).toEqual({ accepted: false, reason: 'bad_signature' });
    });

    it('rejects a missing, empty, short, non-hex or repeated signature header without throwing', () => {
      const { rawBody, signature } = signedPaystackWebhook(SECRET, chargeSuccessEvent('pay_wh_6', 5000));
      const bad = { accepted: false, reason: 'bad_signature' };
      expect(provider.parseWebhook(rawBody, {})).toEqual(bad);
      expect(provider.parseWebhook(rawBody, { 'x-paystack-signature': undefined })).toEqual(bad);
      expect(provider.parseWebhook(rawBody, { 'x-paystack-signature': '' })).toEqual(bad);
      expect(provider.parseWebhook(rawBody, { 'x-paystack-signature': signature.slice(0, 64) })).toEqual(bad);
      expect(provider.parseWebhook(rawBody, { 'x-paystack-signature': `${signature}00` })).toEqual(bad);
      expect(
        provider.parseWebhook(rawBody, { 'x-paystack-signature': `${signature.slice(0, 126)}zz` }),
      ).toEqual(bad);
      expect(provider.parseWebhook(rawBody, { 'x-paystack-signature': [signature, signature] })).toEqual(bad);
      expect(provider.parseWebhook(rawBody, { 'x-paystack-signature': 'sha512=' + signature })).toEqual(bad);
    });

    it('rejects a correctly signed but unparsable body as malformed', () => {
      const { rawBody, headers } = signedPaystackWebhook(SECRET, '{"event": "charge.success", "data": {');
      expect(provider.parseWebhook(rawBody, headers)).toEqual({ accepted: false, reason: 'malformed' });
      const noEvent = signedPaystackWebhook(SECRET, { data: { reference: 'x' } });
      expect(provider.parseWebhook(noEvent.rawBody, noEvent.headers)).toEqual({
        accepted: false,
        reason: 'malformed',
      });
      const array = signedPaystackWebhook(SECRET, '[1,2,3]');
      expect(provider.parseWebhook(array.rawBody, array.headers)).toEqual({
        accepted: false,
        reason: 'malformed',
      });
    });

    it('accepts a signed event without a reference, with reference null', () => {
      const { rawBody, headers } = signedPaystackWebhook(SECRET, { event: 'transfer.success', data: {} });
      expect(provider.parseWebhook(rawBody, headers)).toEqual({
        accepted: true,
        event: 'transfer.success',
        reference: null,
      });
    });
  });
});

describe('mapPaystackStatus', () => {
  it.each([
    ['success', 'succeeded'],
    ['failed', 'failed'],
    ['reversed', 'failed'],
    ['abandoned', 'pending'],
    ['ongoing', 'pending'],
    ['pending', 'pending'],
    ['processing', 'pending'],
    ['queued', 'pending'],
    ['something_new', 'pending'],
  ])('%s → %s', (paystack, ours) => {
    expect(mapPaystackStatus(paystack)).toBe(ours);
  });
});
