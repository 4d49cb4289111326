import { MessageDispatcher } from '../../src/messaging/application/message-dispatcher.service';
import { RecentSubmissions } from '../../src/messaging/application/recent-submissions';
import { loadMessagingOptions } from '../../src/messaging/messaging.options';
import {
  Carrier,
  CARRIER_ROUTES,
  CarrierRoutes,
  OutboundMessage,
} from '../../src/messaging/ports/carrier.port';
import { CLOCK, Clock } from '../../src/shared/clock';
import { AggregateStore } from '../../src/shared/event-store/aggregate-store';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { MessageMetrics } from '../../src/shared/metrics/message.metrics';
import { READ_STORE, ReadStore } from '../../src/shared/read-store/read-store.port';
import { createMerchant } from '../support/merchant';
import { send } from '../support/messaging';
import { startTestApp, TestApp } from '../support/test-app';

class CountingCarrier implements Carrier {
  readonly name = 'COUNTING';
  readonly submitted: OutboundMessage[] = [];
  async submit(message: OutboundMessage) {
    this.submitted.push(message);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { outcome: 'accepted' as const, carrierMessageIds: [`c-${message.messageId}`] };
  }
  async start() {}
  async stop() {}
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Dispatch leases: each dispatcher submits only the messages of the partitions it holds, so
 * several dispatchers (processes) on one store never submit a message twice, without recording a
 * claim per message; a dispatcher that stops hands its partitions to the others.
 */
describe('Messaging: the dispatchers split the partitions and submit each message exactly once', () => {
  const carrier = new CountingCarrier();
  const routes: CarrierRoutes = { carrierFor: () => carrier, all: () => [carrier] };
  let t: TestApp;
  let dispatchers: MessageDispatcher[];

  beforeAll(async () => {
    // No process managers: the messages stay QUEUED until the dispatchers below take them.
    t = await startTestApp({
      env: { RUN_PROCESS_MANAGERS: 'false' },
      override: (b) => b.overrideProvider(CARRIER_ROUTES).useValue(routes),
    });
    const options = {
      ...loadMessagingOptions({}),
      dispatchPartitions: 6,
      dispatchLeaseMs: 4_000,
      dispatchLeaseRenewMs: 150,
      dispatchPollMs: 60_000,
    };
    dispatchers = Array.from(
      { length: 3 },
      () =>
        new MessageDispatcher(
          t.app.get(AggregateStore),
          t.app.get<ReadStore>(READ_STORE),
          routes,
          t.app.get<Clock>(CLOCK),
          options,
          new RecentSubmissions(),
          t.app.get(MessageMetrics),
        ),
    );
    for (const d of dispatchers) await d.start();
  });

  afterAll(async () => {
    for (const d of dispatchers) await d.stop();
    await t.close();
  });

  const held = () => dispatchers.map((d) => d.heldPartitions());

  it('share the partitions out, each held by one dispatcher', async () => {
    await until(() => (held().every((p) => p.length === 2) ? true : undefined), 'two partitions each');
    expect(held().flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('every dispatcher told of every message: each is submitted once, by its partition’s holder', async () => {
    const m = await createMerchant(t);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await send(t, m.testKey)).body.id);
    await Promise.all(ids.flatMap((id) => dispatchers.map((d) => d.dispatch(id))));
    expect(carrier.submitted.map((s) => s.messageId).sort()).toEqual([...ids].sort());
    const events = t.app.get<EventStore>(EVENT_STORE);
    for (const id of ids) {
      expect((await events.readStream(`message-${id}`)).map((e) => e.type)).toEqual([
        'MessageQueued',
        'MessageSent',
      ]);
      const submitter = dispatchers.filter((d) => d.heldPartitions().includes(d.partitionOf(id)));
      expect(submitter).toHaveLength(1);
    }
    // Once SENT, nobody submits it again.
    await Promise.all(ids.flatMap((id) => dispatchers.map((d) => d.dispatch(id))));
    expect(carrier.submitted).toHaveLength(ids.length);
  });

  it('a dispatcher that stops hands its partitions over; its messages are dispatched by the others', async () => {
    const leaving = dispatchers.pop()!;
    const partitions = leaving.heldPartitions();
    await leaving.stop();
    await until(
      () => (held().flat().sort().join() === '0,1,2,3,4,5' ? true : undefined),
      'the others to hold every partition',
    );
    const m = await createMerchant(t);
    let id = '';
    for (let attempt = 0; attempt < 50 && !partitions.includes(leaving.partitionOf(id)); attempt++)
      id = (await send(t, m.testKey)).body.id;
    expect(partitions).toContain(leaving.partitionOf(id));
    const before = carrier.submitted.length;
    await Promise.all([leaving, ...dispatchers].map((d) => d.dispatch(id)));
    expect(carrier.submitted.slice(before).map((s) => s.messageId)).toEqual([id]);
  });
});
