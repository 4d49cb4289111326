import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrphanReaper } from '../../src/messaging/application/message-maintenance.service';
import { OPEN_MESSAGES, OPEN_PARTITION } from '../../src/messaging/projections/open-messages';
import { READ_STORE, ReadStore } from '../../src/shared/read-store/read-store.port';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { InstanceLiveness } from '../../src/shared/instances/instance-liveness.service';
import { INSTANCE_REGISTRY, InstanceRegistry } from '../../src/shared/instances/instance-registry.port';
import { ProjectionsService } from '../../src/shared/projections/projections.service';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant } from '../support/merchant';
import { finalState, SANDBOX, send, sendBatch, settledSmsLeft, smsLeft } from '../support/messaging';
import { eventually, startTestApp } from '../support/test-app';
import { settledIn } from '../support/wallet-settlements';

describe('Messaging: crash safety', () => {
  it('a restart between accept and DLR still ends every message terminal with credits settled', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-restart-'));
    try {
      // First process: receipts would come far too late, so nothing is final when it stops.
      const first = await startTestApp({ dataDir, keepData: true, env: { TEST_DLR_DELAY_MS: '600000' } });
      const m = await createMerchant(first);
      const sent: { id: string; to: string }[] = [];
      for (const to of [
        SANDBOX.delivered,
        SANDBOX.failed,
        SANDBOX.expired,
        SANDBOX.rejected,
        '+233241234567',
        '+233501234567',
      ]) {
        const response = await send(first, m.testKey, { to });
        expect(response.status).toBe(200);
        sent.push({ id: response.body.id, to });
      }
      expect(await smsLeft(first, m.testKey)).toBeLessThanOrEqual(100);
      await first.close();

      const second = await startTestApp({ dataDir, keepData: true, env: { TEST_DLR_DELAY_MS: '20' } });
      try {
        const finals = await Promise.all(sent.map((s) => finalState(second, m.testKey, s.id, 45_000)));
        expect(finals.map((f) => f.status)).toEqual([
          'DELIVERED',
          'FAILED',
          'EXPIRED',
          'FAILED',
          'DELIVERED',
          'DELIVERED',
        ]);
        // Three delivered (captured), three released.
        await settledSmsLeft(second, m, 97, 45_000);
        const events = (await second.request('GET', '/v1/wallet/events?limit=1000', { key: m.testKey })).body
          .data as { type: string; data: unknown }[];
        const settled = settledIn(events);
        expect(settled.captured).toHaveLength(3);
        expect(settled.released).toHaveLength(3);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the orphan reaper rejects and releases a reservation whose message was never queued, and leaves queued ones alone', async () => {
    const t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '600000' } });
    try {
      const m = await createMerchant(t);
      // A send that crashed between reserve and queue:
      await t.app.get(WalletService).reserve(m.wallets.TEST, 'msg_orphanOrphanOrphan01', 3);
      const queued = await send(t, m.testKey);
      expect(await smsLeft(t, m.testKey)).toBe(96);
      await t.app.get(ProjectionsService).catchUp();
      const reaper = t.app.get(OrphanReaper);
      expect(await reaper.runOnce(new Date())).toEqual([]); // within the grace period
      const reaped = await reaper.runOnce(new Date(Date.now() + 10 * 60 * 1000));
      expect(reaped).toEqual(['msg_orphanOrphanOrphan01']);
      const events = t.app.get<EventStore>(EVENT_STORE);
      expect((await events.readStream('message-msg_orphanOrphanOrphan01')).map((e) => e.type)).toEqual([
        'MessageRejected',
      ]);
      expect((await events.readStream(`message-${queued.body.id}`))[0].type).toBe('MessageQueued');
      await settledSmsLeft(t, m, 99);
    } finally {
      await t.close();
    }
  });

  it('an orphan reservation of an instance found dead is released at once; a live instance’s waits for the grace', async () => {
    const t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '600000' } });
    try {
      const m = await createMerchant(t);
      const liveness = t.app.get(InstanceLiveness);
      const events = t.app.get<EventStore>(EVENT_STORE);
      // This instance's send, cut between reserve and queue: the reservation names it.
      await t.app.get(WalletService).reserve(m.wallets.TEST, 'msg_liveOrphanLiveOrph01', 2);
      const ownReservation = (await events.readStream(`wallet-${m.wallets.TEST}`)).find(
        (e) => e.type === 'CreditsReserved',
      );
      expect(ownReservation?.data).toMatchObject({
        messageId: 'msg_liveOrphanLiveOrph01',
        instance: liveness.id,
      });
      // Another instance's, which then stopped heartbeating (its last beat a minute ago).
      const registry = t.app.get<InstanceRegistry>(INSTANCE_REGISTRY);
      const minuteAgo = new Date(Date.now() - 60_000).toISOString();
      await registry.beat({
        id: 'ins_deadDeadDead',
        host: null,
        pid: 1,
        startedAt: minuteAgo,
        beatAt: minuteAgo,
      });
      await events.append(
        `wallet-${m.wallets.TEST}`,
        [
          {
            type: 'CreditsReserved',
            data: {
              messageId: 'msg_deadOrphanDeadOrph01',
              sms: 3,
              reservedAt: new Date().toISOString(),
              instance: 'ins_deadDeadDead',
            },
          },
        ],
        'any',
      );
      t.app.get(WalletService).forgetCache();
      // Found dead at the next heartbeat, and its reservation released then, long before the 2 min grace.
      await eventually(
        async () => {
          const [first] = await events.readStream('message-msg_deadOrphanDeadOrph01', { limit: 1 });
          return first?.type === 'MessageRejected' ? true : undefined;
        },
        30_000,
        'the dead instance’s orphan to be rejected',
      );
      expect(liveness.isDead('ins_deadDeadDead')).toBe(true);
      await settledSmsLeft(t, m, 98);
      expect(await events.readStream('message-msg_liveOrphanLiveOrph01')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('a message with no receipt within its validity ends EXPIRED and its credits come back', async () => {
    const t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '600000', TEST_MESSAGE_VALIDITY_MS: '500' } });
    try {
      const m = await createMerchant(t);
      const response = await send(t, m.testKey, { message: 'a'.repeat(161) });
      expect(response.status).toBe(200);
      const final = await finalState(t, m.testKey, response.body.id, 45_000);
      expect(final).toMatchObject({ status: 'EXPIRED', dlr: { status: 'EXPIRED', carrier_status: null } });
      await settledSmsLeft(t, m, 100);
    } finally {
      await t.close();
    }
  });

  it('a batch’s messages, listed open together, each end EXPIRED, and their open list goes with the last', async () => {
    const t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '600000', TEST_MESSAGE_VALIDITY_MS: '500' } });
    try {
      const m = await createMerchant(t);
      const batch = await sendBatch(t, m.testKey, [SANDBOX.delivered, '+233241234567', '+233501234567']);
      expect(batch.status).toBe(200);
      const single = await send(t, m.testKey);
      for (const id of [...batch.body.data.map((d: { id: string }) => d.id), single.body.id]) {
        expect(await finalState(t, m.testKey, id, 45_000)).toMatchObject({ status: 'EXPIRED' });
      }
      await settledSmsLeft(t, m, 100);
      await t.app.get(ProjectionsService).catchUp();
      const open = await t.app
        .get<ReadStore>(READ_STORE)
        .list(OPEN_MESSAGES, { partition: OPEN_PARTITION, order: 'asc', limit: 10 });
      expect(open).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
