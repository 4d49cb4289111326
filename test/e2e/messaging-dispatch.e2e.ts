import { MessageDispatcher } from '../../src/messaging/application/message-dispatcher.service';
import { RecentSubmissions } from '../../src/messaging/application/recent-submissions';
import { MESSAGING_OPTIONS, MessagingOptions } from '../../src/messaging/messaging.options';
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
import { startTestApp } from '../support/test-app';

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

describe('Messaging: the dispatcher submits each message exactly once', () => {
  it('several dispatchers racing for one message: one claim wins, one submission, one MessageSent', async () => {
    const carrier = new CountingCarrier();
    const routes: CarrierRoutes = { carrierFor: () => carrier, all: () => [carrier] };
    // No process managers: the message stays QUEUED until the dispatchers below take it.
    const t = await startTestApp({
      env: { RUN_PROCESS_MANAGERS: 'false' },
      override: (b) => b.overrideProvider(CARRIER_ROUTES).useValue(routes),
    });
    try {
      const m = await createMerchant(t);
      const response = await send(t, m.testKey);
      expect(response.status).toBe(200);
      const options = t.app.get<MessagingOptions>(MESSAGING_OPTIONS);
      const dispatchers = Array.from(
        { length: 5 },
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
      await Promise.all(dispatchers.map((d) => d.dispatch(response.body.id)));
      expect(carrier.submitted.map((s) => s.messageId)).toEqual([response.body.id]);
      const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`message-${response.body.id}`);
      expect(events.map((e) => e.type)).toEqual(['MessageQueued', 'MessageClaimed', 'MessageSent']);
      // Once SENT, nobody claims or submits it again.
      await Promise.all(dispatchers.map((d) => d.dispatch(response.body.id)));
      expect(carrier.submitted).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
