import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { MintApiKey } from '../../src/accounts/application/commands/mint-api-key.command';
import { RegisterAccount } from '../../src/accounts/application/commands/register-account.command';
import { RevokeApiKey } from '../../src/accounts/application/commands/revoke-api-key.command';
import { ApiKeys } from '../../src/accounts/application/queries/api-keys.query';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { smsLeft } from '../../src/wallet/domain/wallet.decider';
import { createMerchant, Merchant } from '../support/merchant';
import { expectError, startTestApp, TestApp } from '../support/test-app';

describe('Accounts, API keys and wallets', () => {
  let t: TestApp;
  let merchant: Merchant;
  beforeAll(async () => {
    t = await startTestApp();
    merchant = await createMerchant(t);
  });
  afterAll(() => t.close());

  describe('the Bearer guard answers 401 in the error shape', () => {
    it.each([
      ['missing', undefined],
      ['malformed', 'Basic abc'],
      ['not a key', 'Bearer hello'],
      ['unknown', `Bearer sms_test_${'x'.repeat(40)}`],
    ])('%s key', async (_case, authorization) => {
      const response = await t.request('GET', '/v1/billing', {
        headers: authorization ? { authorization } : {},
      });
      expect(expectError(response, 401, 'invalid_api_key').type).toBe('authentication_error');
    });

    it('a revoked key stops working on the next request; a new one works at once', async () => {
      const commands = t.app.get(CommandBus);
      const minted = await commands.execute(new MintApiKey(merchant.accountId, 'TEST', 'short-lived'));
      expect(minted.key).toMatch(/^sms_test_[0-9A-Za-z]{40}$/);
      expect((await t.request('GET', '/v1/billing', { key: minted.key })).status).toBe(200);
      await commands.execute(new RevokeApiKey(minted.id, merchant.accountId));
      expectError(await t.request('GET', '/v1/billing', { key: minted.key }), 401, 'invalid_api_key');
    });

    it('lists keys without their secrets', async () => {
      const keys = await t.app.get(QueryBus).execute(new ApiKeys(merchant.accountId));
      expect(keys.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(keys)).not.toContain(merchant.testKey);
    });
  });

  it('refuses a second account with the same email, even when sign-ups race', async () => {
    const commands = t.app.get(CommandBus);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        commands.execute(new RegisterAccount('Race@Example.com', 'correct horse battery')),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'email_taken' });
    }
  });

  it('opens a TEST wallet with 100 credits and an empty LIVE wallet; each key sees only its own', async () => {
    const test = await t.request('GET', '/v1/billing', { key: merchant.testKey });
    expect(test.body).toMatchObject({ object: 'billing', environment: 'TEST', sms_left: 100 });
    expect(test.body.packages[0]).toEqual({
      object: 'package',
      id: 'pkg_starter',
      name: 'Starter',
      amount: 5000,
      currency: 'GHS',
      sms: 1000,
    });
    const live = await t.request('GET', '/v1/billing', { key: merchant.liveKey });
    expect(live.body).toMatchObject({ environment: 'LIVE', sms_left: 0 });
    const other = await createMerchant(t);
    const events = await t.request('GET', '/v1/wallet/events', { key: other.testKey });
    expect(events.body.data[0].data.walletId).toBe(other.wallets.TEST);
  });

  it('400 concurrent reservations on a 100-credit wallet succeed exactly 100 times and leave 0', async () => {
    const m = await createMerchant(t);
    const wallets = t.app.get(WalletService);
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) => wallets.reserve(m.wallets.TEST, `msg_race${i}`, 1)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(100);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.error.code === 'insufficient_credit')).toBe(
      true,
    );
    const billing = await t.request('GET', '/v1/billing', { key: m.testKey });
    expect(billing.body.sms_left).toBe(0);
  });

  it('wallet events are contiguous from revision 0 and replaying them gives sms_left', async () => {
    const m = await createMerchant(t);
    const wallets = t.app.get(WalletService);
    await wallets.reserve(m.wallets.TEST, 'msg_a', 3);
    await wallets.reserve(m.wallets.TEST, 'msg_b', 2);
    await wallets.capture(m.wallets.TEST, 'msg_a');
    await wallets.release(m.wallets.TEST, 'msg_b', 'failed');
    await wallets.capture(m.wallets.TEST, 'msg_a'); // settled already: nothing happens
    const first = await t.request('GET', '/v1/wallet/events?limit=2', { key: m.testKey });
    expect(first.body).toMatchObject({ object: 'list', has_more: true });
    const rest = await t.request('GET', `/v1/wallet/events?after=${first.body.data[1].revision}`, {
      key: m.testKey,
    });
    const all = [...first.body.data, ...rest.body.data];
    expect(all.map((e: { revision: number }) => e.revision)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(all.map((e: { type: string }) => e.type)).toEqual([
      'WalletOpened',
      'CreditsAdded',
      'CreditsReserved',
      'CreditsReserved',
      'ReservationCaptured',
      'ReservationReleased',
    ]);
    const replayed = await wallets.replay(m.wallets.TEST);
    const billing = await t.request('GET', '/v1/billing', { key: m.testKey });
    expect(smsLeft(replayed!.wallet)).toBe(97);
    expect(billing.body.sms_left).toBe(97);
  });

  it('settlements decided together are one ReservationsSettled: replay, balance and statement agree', async () => {
    const m = await createMerchant(t);
    const wallets = t.app.get(WalletService);
    for (const [id, sms] of [
      ['msg_s1', 1],
      ['msg_s2', 2],
      ['msg_s3', 3],
      ['msg_s4', 4],
    ] as const)
      expect((await wallets.reserve(m.wallets.TEST, id, sms)).ok).toBe(true);
    const results = await Promise.all([
      wallets.capture(m.wallets.TEST, 'msg_s1'),
      wallets.release(m.wallets.TEST, 'msg_s2', 'message failed'),
      wallets.capture(m.wallets.TEST, 'msg_s3'),
      wallets.capture(m.wallets.TEST, 'msg_s1'), // twice in one batch: settled once
      wallets.capture(m.wallets.TEST, 'msg_s4'),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);

    const events = (await t.request('GET', '/v1/wallet/events', { key: m.testKey })).body.data;
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      'WalletOpened',
      'CreditsAdded',
      'CreditsReserved',
      'CreditsReserved',
      'CreditsReserved',
      'CreditsReserved',
      'ReservationsSettled',
    ]);
    expect(events[6].data).toEqual({
      captured: [
        { messageId: 'msg_s1', sms: 1 },
        { messageId: 'msg_s3', sms: 3 },
        { messageId: 'msg_s4', sms: 4 },
      ],
      released: [{ messageId: 'msg_s2', sms: 2, reason: 'message failed' }],
    });
    const replayed = await wallets.replay(m.wallets.TEST);
    expect(smsLeft(replayed!.wallet)).toBe(92);
    expect(replayed!.wallet.reserved.size).toBe(0);
    expect((await t.request('GET', '/v1/billing', { key: m.testKey })).body.sms_left).toBe(92);
    const statement = (await t.request('GET', '/v1/wallet/statement', { key: m.testKey })).body;
    expect(statement).toMatchObject({ spent: 8, closing_balance: 92 });
    expect(statement.days.at(-1)).toMatchObject({ spent: 8, messages_delivered: 3 });
  });

  it('rejects bad paging parameters in the error shape, naming the parameter (class-validator)', async () => {
    for (const limit of ['0', '1001', 'abc', '1.5']) {
      const error = expectError(
        await t.request('GET', `/v1/wallet/events?limit=${limit}`, { key: merchant.testKey }),
        400,
        'invalid_limit',
      );
      expect(error.param).toBe('limit');
    }
    const error = expectError(
      await t.request('GET', '/v1/wallet/events?after=-1', { key: merchant.testKey }),
      400,
      'parameter_invalid',
    );
    expect(error).toMatchObject({ param: 'after', type: 'invalid_request_error' });
  });
});
