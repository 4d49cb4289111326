import { routesAdd } from '../../src/cli/commands/route.commands';
import { SmscSimulator } from '../../src/messaging/adapters/smpp/smsc-simulator';
import { randomToken } from '../../src/shared/ids';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, send, smsLeft } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * LIVE sends end to end through the real SMPP adapter (SmppCarrier) against the SMSC simulator
 * on 127.0.0.1. Outcomes are chosen by destination (smsc-outcome-rules.ts): …0000001 DELIVRD,
 * …02 UNDELIV, …03 EXPIRED, …04 ESME_RINVDSTADR, …05 throttled twice; anything else DELIVRD.
 * Reconnects use the adapter's defaults (1 s backoff, 2 s retry while unbound): timeouts are generous.
 */
const SLOW = 60_000;
jest.setTimeout(120_000);

/** A fresh MTN number (+23324 + 7 digits) that no default rule matches: delivered. */
function mtnNumber(): string {
  return `+23324${String(1_000_000 + Math.floor(Math.random() * 8_999_999))}`;
}

describe('LIVE messages over SMPP (SmppCarrier ↔ SmscSimulator)', () => {
  let mtn: SmscSimulator;
  let nigeria: SmscSimulator;
  let t: TestApp;

  beforeAll(async () => {
    mtn = await new SmscSimulator({
      systemId: 'mtn_user',
      password: 'p@ss:w/rd',
      receiptDelayMs: 50,
    }).listen();
    nigeria = await new SmscSimulator({ systemId: 'ng', password: 'ng', receiptDelayMs: 50 }).listen();
    t = await startTestApp({
      env: {
        CARRIER_MTN_URL: mtn.url(),
        CARRIER_NGCARRIER_URL: nigeria.url('tps=20&window=4'),
        RATE_LIMIT_PER_ADDRESS_BURST: '500',
      },
    });
    await eventually(async () => (mtn.boundSessionCount === 1 ? true : undefined), SLOW, 'the MTN bind');
  });

  afterAll(async () => {
    await t?.close();
    await mtn?.close();
    await nigeria?.close();
  });

  /** A merchant whose LIVE wallet an operator granted `credits`. */
  async function liveMerchant(credits = 10): Promise<Merchant> {
    const m = await createMerchant(t);
    const granted = await t.app.get(WalletService).addCredits(m.wallets.LIVE, {
      sourceId: `grant-${randomToken(8)}`,
      source: 'operator_grant',
      sms: credits,
      reason: 'e2e LIVE credits',
    });
    expect(granted.ok).toBe(true);
    await liveSmsLeftBecomes(m, credits);
    return m;
  }

  /** sms_left is read from a projection: poll it. */
  function liveSmsLeftBecomes(m: Merchant, expected: number): Promise<number> {
    return eventually(
      async () => ((await smsLeft(t, m.liveKey)) === expected ? expected : undefined),
      SLOW,
      `LIVE sms_left to be ${expected}`,
    );
  }

  async function walletEventTypes(m: Merchant): Promise<string[]> {
    const events = await t.request('GET', '/v1/wallet/events?limit=1000', { key: m.liveKey });
    expect(events.status).toBe(200);
    return events.body.data.map((e: { type: string }) => e.type);
  }

  async function sendLive(m: Merchant, to: string, message = 'Hello over SMPP') {
    const response = await send(t, m.liveKey, { to, message });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ environment: 'LIVE', status: 'QUEUED', to });
    return response.body as {
      id: string;
      carrier: string;
      encoding: string;
      segments: number;
      credits: number;
    };
  }

  it('the simulator URL carries (percent-encoded) credentials', () => {
    expect(mtn.url()).toBe(`smpp://mtn_user:p%40ss%3Aw%2Frd@127.0.0.1:${mtn.port}`);
  });

  it('delivered: one submit_sm as sent, DELIVRD receipt, the credit is captured', async () => {
    const m = await liveMerchant(10);
    const to = mtnNumber();
    const sent = await sendLive(m, to, 'Your code is 123456');
    expect(sent).toMatchObject({ carrier: 'MTN', encoding: 'GSM-7', segments: 1, credits: 1 });
    await liveSmsLeftBecomes(m, 9); // reserved by the send

    const final = await finalState(t, m.liveKey, sent.id, SLOW);
    expect(final).toMatchObject({
      status: 'DELIVERED',
      dlr: { status: 'DELIVERED', error_code: null, carrier_status: 'DELIVRD' },
    });
    const submissions = mtn.submissionsTo(to);
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toMatchObject({
      status: 'ESME_ROK',
      destinationAddr: to.slice(1),
      sourceAddr: 'MyShop',
      dataCoding: 0,
      text: 'Your code is 123456',
      concat: null,
    });
    expect(submissions[0].registeredDelivery & 1).toBe(1);

    await eventually(
      async () => ((await walletEventTypes(m)).includes('ReservationCaptured') ? true : undefined),
      SLOW,
      'the reservation to be captured',
    );
    expect(await liveSmsLeftBecomes(m, 9)).toBe(9);
    expect(await walletEventTypes(m)).not.toContain('ReservationReleased');
  });

  it.each([
    ['undeliverable (UNDELIV)', '+233240000002', 'FAILED', 'UNDELIV', 'undeliverable'],
    ['expired (EXPIRED receipt)', '+233240000003', 'EXPIRED', 'EXPIRED', 'expired'],
  ])(
    '%s: the final receipt settles it and releases the credit',
    async (_name, to, status, carrierStatus, errorCode) => {
      const m = await liveMerchant(10);
      const sent = await sendLive(m, to);
      await liveSmsLeftBecomes(m, 9);
      const final = await finalState(t, m.liveKey, sent.id, SLOW);
      expect(final).toMatchObject({
        status,
        dlr: { status, carrier_status: carrierStatus, error_code: errorCode },
      });
      expect(mtn.submissionsTo(to).filter((s) => s.status === 'ESME_ROK').length).toBeGreaterThanOrEqual(1);
      expect(await liveSmsLeftBecomes(m, 10)).toBe(10);
      await eventually(
        async () => ((await walletEventTypes(m)).includes('ReservationReleased') ? true : undefined),
        SLOW,
        'the reservation to be released',
      );
      expect(await walletEventTypes(m)).not.toContain('ReservationCaptured');
    },
  );

  it('rejected at submit (ESME_RINVDSTADR): FAILED, submitted once, credit released', async () => {
    const m = await liveMerchant(10);
    const to = '+233240000004';
    const before = mtn.submissionsTo(to).length;
    const sent = await sendLive(m, to);
    const final = await finalState(t, m.liveKey, sent.id, SLOW);
    expect(final.status).toBe('FAILED');
    expect(JSON.stringify(final)).toContain('ESME_RINVDSTADR');
    const submissions = mtn.submissionsTo(to).slice(before);
    expect(submissions.map((s) => s.status)).toEqual(['ESME_RINVDSTADR']);
    expect(await liveSmsLeftBecomes(m, 10)).toBe(10);
    expect(await walletEventTypes(m)).toContain('ReservationReleased');
  });

  it('a 3-part GSM-7 message: three concatenated parts on the SMSC, 3 credits captured', async () => {
    const m = await liveMerchant(10);
    const to = mtnNumber();
    const body = Array.from({ length: 32 }, (_, i) => `Part of a long note ${i}.`)
      .join(' ')
      .slice(0, 400);
    const sent = await sendLive(m, to, body);
    expect(sent).toMatchObject({ encoding: 'GSM-7', segments: 3, credits: 3 });
    await liveSmsLeftBecomes(m, 7);

    expect((await finalState(t, m.liveKey, sent.id, SLOW)).status).toBe('DELIVERED');
    const parts = mtn.submissionsTo(to);
    expect(parts).toHaveLength(3);
    expect(
      parts.every((p) => p.status === 'ESME_ROK' && p.dataCoding === 0 && (p.esmClass & 0x40) !== 0),
    ).toBe(true);
    expect(parts.map((p) => p.concat?.sequence)).toEqual([1, 2, 3]);
    expect(new Set(parts.map((p) => p.concat?.total))).toEqual(new Set([3]));
    expect(new Set(parts.map((p) => p.concat?.reference)).size).toBe(1);
    expect(parts.map((p) => p.text).join('')).toBe(body);
    expect(await liveSmsLeftBecomes(m, 7)).toBe(7);
  });

  it('a UCS-2 message: data_coding 8 with the UTF-16BE bytes', async () => {
    const m = await liveMerchant(10);
    const to = mtnNumber();
    const body = 'Ɛte sɛn? Wo nkɔmmɔ aba 👋';
    const sent = await sendLive(m, to, body);
    expect(sent).toMatchObject({ encoding: 'UCS-2', segments: 1, credits: 1 });
    expect((await finalState(t, m.liveKey, sent.id, SLOW)).status).toBe('DELIVERED');
    const [submission, ...more] = mtn.submissionsTo(to);
    expect(more).toHaveLength(0);
    expect(submission.dataCoding).toBe(8);
    expect(submission.payload.equals(Buffer.from(body, 'utf16le').swap16())).toBe(true);
    expect(submission.text).toBe(body);
    expect(await liveSmsLeftBecomes(m, 9)).toBe(9);
  });

  it('throttled (ESME_RTHROTTLED twice) then accepted: DELIVERED, only the accepted submit counts', async () => {
    const m = await liveMerchant(10);
    const to = '+233240000005';
    const sent = await sendLive(m, to);
    expect((await finalState(t, m.liveKey, sent.id, SLOW)).status).toBe('DELIVERED');
    expect(mtn.submissionsTo(to).map((s) => s.status)).toEqual([
      'ESME_RTHROTTLED',
      'ESME_RTHROTTLED',
      'ESME_ROK',
    ]);
    expect(await liveSmsLeftBecomes(m, 9)).toBe(9);
  });

  it('a dropped connection: the adapter rebinds and the message goes out exactly once', async () => {
    const m = await liveMerchant(10);
    const binds = mtn.bindCount;
    mtn.dropConnections();
    const to = mtnNumber();
    // Sent while the link is down: submit answers retry until the adapter has rebound.
    const sent = await sendLive(m, to, 'Sent across a reconnect');
    expect((await finalState(t, m.liveKey, sent.id, SLOW)).status).toBe('DELIVERED');
    expect(mtn.bindCount).toBeGreaterThan(binds);
    expect(mtn.submissionsTo(to).map((s) => s.status)).toEqual(['ESME_ROK']);
    expect(await liveSmsLeftBecomes(m, 9)).toBe(9);
  });

  it('a connection dropped while a receipt is outstanding: the receipt arrives after the rebind, once', async () => {
    const m = await liveMerchant(10);
    mtn.configure({ receiptDelayMs: 3000 });
    try {
      const to = mtnNumber();
      const sent = await sendLive(m, to, 'Receipt across a reconnect');
      await eventually(
        async () => {
          const r = await t.request('GET', `/v1/messages/${sent.id}`, { key: m.liveKey });
          return r.body.status === 'SENT' ? true : undefined;
        },
        SLOW,
        'the message to be SENT',
      );
      const binds = mtn.bindCount;
      mtn.dropConnections();
      const final = await finalState(t, m.liveKey, sent.id, SLOW);
      expect(final).toMatchObject({ status: 'DELIVERED', dlr: { carrier_status: 'DELIVRD' } });
      expect(mtn.bindCount).toBeGreaterThan(binds);
      expect(mtn.submissionsTo(to).map((s) => s.status)).toEqual(['ESME_ROK']);
      expect(await liveSmsLeftBecomes(m, 9)).toBe(9);
      const types = await walletEventTypes(m);
      expect(types.filter((type) => type === 'ReservationCaptured')).toHaveLength(1);
    } finally {
      mtn.configure({ receiptDelayMs: 50 });
    }
  });

  it('receipts that overtake the submit result (no receipt delay) still settle every message', async () => {
    const m = await liveMerchant(20);
    mtn.configure({ receiptDelayMs: 0 });
    try {
      const sends = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const to = mtnNumber();
          return { to, sent: await sendLive(m, to, 'Fast receipt') };
        }),
      );
      for (const { to, sent } of sends) {
        expect((await finalState(t, m.liveKey, sent.id, SLOW)).status).toBe('DELIVERED');
        expect(mtn.submissionsTo(to).map((s) => s.status)).toEqual(['ESME_ROK']);
      }
      expect(await liveSmsLeftBecomes(m, 8)).toBe(8);
    } finally {
      mtn.configure({ receiptDelayMs: 50 });
    }
  });

  it('a carrier without a LIVE connection (TELECEL): 400 carrier_unavailable, nothing reserved', async () => {
    const m = await liveMerchant(10);
    const submitted = mtn.submissions().length;
    const refused = await send(t, m.liveKey, { to: '+233201234567' });
    expectError(refused, 400, 'carrier_unavailable');
    expect(refused.body.error.message).toMatch(/TELECEL/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await liveSmsLeftBecomes(m, 10)).toBe(10);
    expect(await walletEventTypes(m)).not.toContain('CreditsReserved');
    expect(mtn.submissions()).toHaveLength(submitted);
  });

  it('routes:add --prefix +234 --carrier NGCARRIER with CARRIER_NGCARRIER_URL: Nigeria is sendable on LIVE', async () => {
    const m = await liveMerchant(10);
    const to = '+2348031234567';
    expectError(await send(t, m.liveKey, { to }), 400, 'unsupported_destination');

    const added = await routesAdd.run(t.app, { prefix: '+234', carrier: 'NGCARRIER' });
    expect(added.output).toEqual({ added: { prefix: '+234', carrier: 'NGCARRIER' } });

    const sent = await sendLive(m, to, 'Hello Lagos');
    expect(sent.carrier).toBe('NGCARRIER');
    expect((await finalState(t, m.liveKey, sent.id, SLOW)).status).toBe('DELIVERED');
    expect(nigeria.submissionsTo(to).map((s) => [s.status, s.text])).toEqual([['ESME_ROK', 'Hello Lagos']]);
    expect(mtn.submissionsTo(to)).toHaveLength(0);
    expect(await liveSmsLeftBecomes(m, 9)).toBe(9);
  });
});
