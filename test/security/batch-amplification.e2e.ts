import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import { MintApiKey } from '../../src/accounts/application/commands/mint-api-key.command';
import { routesAdd } from '../../src/cli/commands/route.commands';
import { loadConfig } from '../../src/config/app-config';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { createMerchant, Merchant } from '../support/merchant';
import { parseExposition, sampleValue } from '../support/prometheus';
import { expectRateLimited, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 28, item 2: a batch is up to 1,000 items of work in one request. A batch that accepts
 * nothing stores nothing (and is not counted as accepted), and a wallet's batch items are limited
 * per second whatever its keys (BATCH_ITEMS_PER_*: a token bucket of items).
 */
describe('batch amplification', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        // A full batch at once, then one item a second: the next full batch waits (TEST wallets).
        BATCH_ITEMS_PER_TEST_WALLET_PER_SECOND: '1',
        BATCH_ITEMS_PER_TEST_WALLET_BURST: '1000',
        BATCH_ITEMS_PER_WALLET_PER_SECOND: '1',
        BATCH_ITEMS_PER_WALLET_BURST: '2000',
      },
    });
  });
  afterAll(() => t?.close());

  const refusedItems = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ to: `+44791112${String(i).padStart(4, '0')}` }));
  const batchOf = (messages: unknown[]) => ({
    sender_id: 'MyShop',
    type: 'transactional',
    message: 'Hello',
    messages,
  });
  const batch = (key: string, body: unknown, headers?: Record<string, string>) =>
    t.request('POST', '/v1/messages/batch', { key, body, headers });
  const head = () => t.app.get<EventStore>(EVENT_STORE).headPosition();
  /** What a send or batch writes, appended after `position` (a new wallet's own events may still arrive). */
  const sendEventsAfter = async (position: bigint) =>
    (await t.app.get<EventStore>(EVENT_STORE).readAll({ after: position }))
      .filter((e) => /^(batch|idempotency|message)/.test(e.streamId) || e.type === 'CreditsReserved')
      .map((e) => `${e.streamId} ${e.type}`);
  const scrape = async () => parseExposition((await t.request('GET', '/metrics')).text);
  const batchCounts = async () => {
    const samples = await scrape();
    const count = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(samples, name, { endpoint: 'batch', environment: 'TEST', ...labels }) ?? 0;
    return {
      accepted: count('sms_sends_accepted_total'),
      refused: count('sms_sends_refused_total', { code: 'batch_refused' }),
    };
  };

  it('a batch whose every item is refused writes nothing and counts as refused, not accepted', async () => {
    const m = await createMerchant(t);
    const before = { position: await head(), metrics: await batchCounts() };
    const r = await batch(m.testKey, batchOf(refusedItems(1000)));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'batch', id: null, accepted: 0, refused: 1000 });
    expect(r.body.data[999].error).toMatchObject({
      code: 'unsupported_destination',
      param: 'messages[999].to',
    });
    // Not one event: no BatchSubmitted, no reservation, no idempotency record.
    expect(await sendEventsAfter(before.position)).toEqual([]);
    expect(await batchCounts()).toEqual({
      accepted: before.metrics.accepted,
      refused: before.metrics.refused + 1,
    });
  });

  it('under an Idempotency-Key it records nothing either: a retry is checked again, and sent once it can be', async () => {
    const m = await createMerchant(t);
    const key = randomUUID();
    const body = batchOf([{ to: '+2348031234567' }]);
    const position = await head();
    const first = await batch(m.testKey, body, { 'idempotency-key': key });
    expect(first.body).toMatchObject({ id: null, accepted: 0, refused: 1 });
    expect(await sendEventsAfter(position)).toEqual([]);
    // The same again: the same refusal, not a replay (nothing was recorded to replay).
    const again = await batch(m.testKey, body, { 'idempotency-key': key });
    expect(again.body).toMatchObject({ id: null, accepted: 0 });
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    await routesAdd.run(t.app, { prefix: '+234', carrier: 'glo' });
    const sent = await batch(m.testKey, body, { 'idempotency-key': key });
    expect(sent.body).toMatchObject({ id: expect.stringMatching(/^bat_/), accepted: 1 });
    const replayed = await batch(m.testKey, body, { 'idempotency-key': key });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.id).toBe(sent.body.id);
  });

  it("counts every item against its wallet's budget, whichever of the wallet's keys sends it", async () => {
    const m = await createMerchant(t);
    const other = await createMerchant(t);
    const secondKey = (await t.app.get(CommandBus).execute(new MintApiKey(m.accountId, 'TEST', 'second')))
      .key;

    expect((await batch(m.testKey, batchOf(refusedItems(1000)))).status).toBe(200);
    // The bucket is empty: refused items cost as much as sent ones, and the wallet's other key shares it.
    const limited = await batch(secondKey, batchOf(refusedItems(10)));
    expect(expectRateLimited(limited)).toBeGreaterThanOrEqual(1);
    expect(limited.body.error.message).toMatch(/batch items for this wallet/);
    expectRateLimited(await batch(m.testKey, batchOf(refusedItems(20))));
    // Another wallet has its own budget; single sends are not batch items.
    expect((await batch(other.testKey, batchOf(refusedItems(1000)))).status).toBe(200);
    expect((await t.request('GET', '/v1/billing', { key: m.testKey })).status).toBe(200);
  });

  it('a LIVE wallet has its own, larger budget', async () => {
    const m: Merchant = await createMerchant(t);
    expect((await batch(m.liveKey, batchOf(refusedItems(1000)))).status).toBe(200);
    expect((await batch(m.liveKey, batchOf(refusedItems(1000)))).status).toBe(200);
    expectRateLimited(await batch(m.liveKey, batchOf(refusedItems(1000))));
  });

  it('refuses to start with a budget that could never take a full batch', () => {
    expect(() => loadConfig({ BATCH_ITEMS_PER_WALLET_BURST: '999' })).toThrow(
      'BATCH_ITEMS_PER_WALLET_BURST at least 1000 (one full batch)',
    );
  });
});
