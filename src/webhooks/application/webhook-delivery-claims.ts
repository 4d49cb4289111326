import { ConcurrencyError, type EventStore } from '../../shared/event-store/event-store.port';
import { webhookDeliveryClaimStream, type WebhookAttemptClaimed } from '../domain/webhook.events';

/**
 * Which process makes a delivery's next attempt. Processes sharing one store all see the same
 * pending delivery in the outbox; each claims the attempt by appending to the delivery's claim
 * stream at the revision it read, so one wins and the others leave it. A claim whose holder died
 * (its lease over, no outcome recorded) is taken over the same way.
 */
export class WebhookDeliveryClaims {
  constructor(
    private readonly events: EventStore,
    private readonly instance: string,
    private readonly leaseMs: number,
  ) {}

  /** True when this process may make attempt `attempt` of the delivery now. */
  async claim(deliveryId: string, attempt: number, now: Date): Promise<boolean> {
    const stream = webhookDeliveryClaimStream(deliveryId);
    const [last] = await this.events.readStream(stream, { direction: 'backwards', limit: 1 });
    const held = last as unknown as (WebhookAttemptClaimed & { revision: bigint }) | undefined;
    if (held && held.data.attempt >= attempt && Date.parse(held.data.leaseUntil) > now.getTime())
      return false;
    const claim: WebhookAttemptClaimed = {
      type: 'WebhookAttemptClaimed',
      data: {
        attempt,
        instance: this.instance,
        at: now.toISOString(),
        leaseUntil: new Date(now.getTime() + this.leaseMs).toISOString(),
      },
    };
    try {
      await this.events.append(stream, [claim], held ? held.revision : 'no_stream');
      return true;
    } catch (error) {
      if (error instanceof ConcurrencyError) return false; // another process claimed it first
      throw error;
    }
  }
}
