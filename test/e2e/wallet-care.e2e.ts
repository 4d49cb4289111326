import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { GrantCredits } from '../../src/wallet/application/commands/grant-credits.command';
import { WalletReplay } from '../../src/wallet/application/queries/wallet-replay.query';
import { createMerchant, Merchant } from '../support/merchant';
import { finalState, SANDBOX, send, smsLeft } from '../support/messaging';
import { startSmtpServer, TestSmtpServer } from '../support/smtp-server';
import { eventually, expectError, startTestApp, TestApp } from '../support/test-app';
import { verifyWebhook } from '../support/verify-webhook';
import { startWebhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Wallet care over HTTP (API.md, Wallet care): statements that agree with wallet:replay, and the
 * low-balance alert (one webhook event and one mail per crossing, armed again above it), against
 * a real SMTP server and a webhook receiver started here.
 */
jest.setTimeout(180_000);

const today = () => new Date().toISOString().slice(0, 10);

describe('Wallet care', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    hooks = await startWebhookReceiver();
    t = await startTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_POLL_MS: '50',
        TEST_DLR_DELAY_MS: '20',
        WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
        WEBHOOK_POLL_MS: '50',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await hooks?.close();
  });

  async function sendAndSettle(m: Merchant, to: string, count: number) {
    for (let i = 0; i < count; i++) {
      const sent = await send(t, m.testKey, { to });
      expect(sent.status).toBe(200);
      await finalState(t, m.testKey, sent.body.id);
    }
  }

  describe('statement', () => {
    let m: Merchant;
    beforeAll(async () => {
      m = await createMerchant(t);
      await sendAndSettle(m, SANDBOX.delivered, 3);
      await sendAndSettle(m, SANDBOX.failed, 1);
      await t.app.get(CommandBus).execute(new GrantCredits(m.wallets.TEST, 25, 'Goodwill'));
      // Every reservation settled: what the statement calls spent is final.
      await eventually(async () => ((await smsLeft(t, m.testKey)) === 122 ? true : undefined));
    });

    it("folds the wallet's own events per UTC day and agrees with wallet:replay to the credit", async () => {
      const response = await t.request('GET', `/v1/wallet/statement?from=${today()}&to=${today()}`, {
        key: m.testKey,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        object: 'statement',
        from: today(),
        to: today(),
        opening_balance: 0,
        purchased: 0,
        granted: 125,
        spent: 3,
        closing_balance: 122,
        days: [
          {
            date: today(),
            purchased: 0,
            granted: 125,
            spent: 3,
            messages_delivered: 3,
            closing_balance: 122,
          },
        ],
      });
      const replay = (await t.app.get(QueryBus).execute(new WalletReplay(m.wallets.TEST)))!;
      expect(replay.consistent).toBe(true);
      // Settled balance: what is left to send plus what is still reserved.
      expect(response.body.closing_balance).toBe(replay.sms_left + replay.reserved);
      expect(
        response.body.opening_balance + response.body.granted + response.body.purchased - response.body.spent,
      ).toBe(replay.credits_in - replay.captured);
    });

    it('defaults to this month so far', async () => {
      const response = await t.request('GET', '/v1/wallet/statement', { key: m.testKey });
      expect(response.body).toMatchObject({
        from: `${today().slice(0, 8)}01`,
        to: today(),
        closing_balance: 122,
      });
    });

    it('as CSV: the opening, each grant with its reason, the day of spending, the closing', async () => {
      const response = await t.request('GET', `/v1/wallet/statement.csv?from=${today()}&to=${today()}`, {
        key: m.testKey,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const rows = response.text.trim().split('\r\n');
      expect(rows[0]).toBe('date,type,reference,description,sms');
      expect(rows).toContain(`${today()},grant,${m.wallets.TEST}:opening,Free test credits on opening,100`);
      expect(rows.some((r) => /^\d{4}-\d{2}-\d{2},grant,grant:[^,]+,Goodwill,25$/.test(r))).toBe(true);
      expect(rows).toContain(`${today()},spent,,3 messages delivered,-3`);
      expect(rows[rows.length - 1]).toBe(`${today()},closing_balance,,Balance at the end of the day,122`);
      const sum = rows
        .slice(1)
        .slice(0, -1)
        .reduce((total, r) => total + Number(r.split(',').pop()), 0);
      expect(sum).toBe(122);
    });

    it('refuses a day that is not one, a period backwards or longer than 366 days', async () => {
      expect(
        expectError(
          await t.request('GET', '/v1/wallet/statement?from=2026-02-30', { key: m.testKey }),
          400,
          'invalid_date',
        ).param,
      ).toBe('from');
      expect(
        expectError(
          await t.request('GET', '/v1/wallet/statement?from=2026-11-02&to=2026-11-01', { key: m.testKey }),
          400,
          'invalid_period',
        ).param,
      ).toBe('from');
      expect(
        expectError(
          await t.request('GET', '/v1/wallet/statement.csv?from=2024-01-01&to=2026-01-01', {
            key: m.testKey,
          }),
          400,
          'invalid_period',
        ).param,
      ).toBe('from');
    });
  });

  describe('low-balance alert', () => {
    it('answers null until set, and refuses a threshold that is not a positive whole number', async () => {
      const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
      expect((await t.request('GET', '/v1/wallet/alerts', { key: m.testKey })).body).toEqual({
        object: 'wallet_alerts',
        low_balance: null,
        alerted: null,
      });
      expect(
        expectError(
          await t.request('PUT', '/v1/wallet/alerts', { key: m.testKey, body: { low_balance: 0 } }),
          400,
          'invalid_threshold',
        ).param,
      ).toBe('low_balance');
      expect(
        expectError(
          await t.request('PUT', '/v1/wallet/alerts', { key: m.testKey, body: { low_balance: 2.5 } }),
          400,
          'invalid_threshold',
        ).param,
      ).toBe('low_balance');
      expect(
        expectError(
          await t.request('PUT', '/v1/wallet/alerts', { key: m.testKey, body: {} }),
          400,
          'parameter_missing',
        ).param,
      ).toBe('low_balance');
    });

    it('one webhook event and one mail per crossing, armed again above the threshold', async () => {
      const m = await createMerchant(t, undefined, { approvedSenderIds: [] });
      const endpoint = await t.request('POST', '/v1/webhook_endpoints', {
        key: m.testKey,
        body: { url: hooks.url, events: ['wallet.balance_low'] },
      });
      expect(endpoint.status).toBe(200);
      const set = await t.request('PUT', '/v1/wallet/alerts', { key: m.testKey, body: { low_balance: 98 } });
      expect(set.body).toEqual({ object: 'wallet_alerts', low_balance: 98, alerted: null });

      const lowMails = () =>
        smtp.mails.filter(
          (mail) => mail.to.includes(m.email) && mail.subject === 'Your TEST credits are running low',
        );

      await sendAndSettle(m, SANDBOX.delivered, 1); // 99 left: above
      await sendAndSettle(m, SANDBOX.delivered, 1); // 98: at the threshold → alert
      await smtp.waitForMails(1, (mail) => lowMails().includes(mail));
      const [event] = await eventually(async () => {
        const mine = hooks.received.filter(
          (r) => r.raw.includes('wallet.balance_low') && JSON.parse(r.raw).data.threshold === 98,
        );
        return mine.length ? mine : undefined;
      });
      const body = JSON.parse(event.raw);
      expect(body).toMatchObject({
        object: 'event',
        type: 'wallet.balance_low',
        sequence: 1,
        data: { sms_left: 98, threshold: 98 },
      });
      expect(verifyWebhook(event.raw, event.signature, endpoint.body.secret)).toBe(true);
      expect(lowMails()[0].decoded).toContain(
        'Your TEST wallet has 98 credits left, at or below your low-balance alert of 98 credits.',
      );
      expect((await t.request('GET', '/v1/wallet/alerts', { key: m.testKey })).body.alerted).toMatchObject({
        sms_left: 98,
        threshold: 98,
      });

      await sendAndSettle(m, SANDBOX.delivered, 2); // 96: still low, no second alert
      await t.app.get(CommandBus).execute(new GrantCredits(m.wallets.TEST, 10, 'Top up')); // 106: armed again
      await eventually(async () =>
        (await t.request('GET', '/v1/wallet/alerts', { key: m.testKey })).body.alerted === null
          ? true
          : undefined,
      );
      await sendAndSettle(m, SANDBOX.delivered, 8); // 98 again: the second crossing
      await smtp.waitForMails(2, (mail) => lowMails().includes(mail));
      await eventually(async () => {
        const mine = hooks.received.filter(
          (r) => r.raw.includes('wallet.balance_low') && JSON.parse(r.raw).data.threshold === 98,
        );
        return mine.length === 2 ? mine : undefined;
      });
      // The webhook events of the wallet name both crossings, and nothing else was sent.
      const events = await t.request('GET', '/v1/events', { key: m.testKey });
      expect(events.body.data.filter((e: { type: string }) => e.type === 'wallet.balance_low')).toHaveLength(
        2,
      );
      expect(lowMails()).toHaveLength(2);
    });
  });
});
