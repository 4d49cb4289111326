import { MessageDispatcher } from '../../src/messaging/application/message-dispatcher.service';
import { MESSAGING_OPTIONS, MessagingOptions } from '../../src/messaging/messaging.options';
import { createMerchant } from '../support/merchant';
import { send } from '../support/messaging';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 28, item 9: a scheduled message due within five minutes holds a wake-up timer in the
 * dispatcher (about 400 B). Canceling it used to leave the timer until it fired; the cancel
 * (seen by the dispatch process manager) now clears it.
 */
jest.setTimeout(120_000);

describe('cancel and the dispatcher’s wake-up timers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('clears the wake-up of every canceled message, and keeps the others', async () => {
    const dispatcher = t.app.get(MessageDispatcher);
    const wakeUps = async () => (await dispatcher.backlog()).wakeUps;
    // A message is woken by the dispatcher holding its partition: all of them, in this one process.
    const partitions = t.app.get<MessagingOptions>(MESSAGING_OPTIONS).dispatchPartitions;
    await eventually(
      async () => (dispatcher.heldPartitions().length === partitions ? true : undefined),
      30_000,
      'the dispatch partitions',
    );
    const m = await createMerchant(t);
    const sendAt = new Date(Date.now() + 4 * 60_000).toISOString(); // within the 5-minute wake-up window
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await send(t, m.testKey, { send_at: sendAt });
      expect(r.body.status).toBe('SCHEDULED');
      ids.push(r.body.id);
    }
    await eventually(async () => ((await wakeUps()) === 12 ? true : undefined), 30_000, '12 wake-ups');

    for (const id of ids.slice(0, 10)) {
      expect((await t.request('POST', `/v1/messages/${id}/cancel`, { key: m.testKey })).status).toBe(200);
    }
    await eventually(async () => ((await wakeUps()) === 2 ? true : undefined), 30_000, '2 wake-ups left');
  });
});
