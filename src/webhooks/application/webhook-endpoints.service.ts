import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { unwrap } from '../../shared/result';
import * as endpoint from '../domain/webhook-endpoint.decider';
import * as slots from '../domain/webhook-endpoint-slots.decider';
import { webhookEndpointSlotsStream, webhookEndpointStream } from '../domain/webhook.events';
import {
  WEBHOOK_ENDPOINTS,
  WEBHOOK_ENDPOINTS_PROJECTION,
  WebhookEndpointDoc,
} from '../projections/webhook-endpoints.projection';

/** A slot whose endpoint was never created is freed after this long (a crash between the two writes). */
const ORPHAN_SLOT_MS = 60_000;

/**
 * What the endpoint use cases and the delivery worker share: a wallet's endpoints, the slots
 * that enforce its limit, and disabling one.
 */
@Injectable()
export class WebhookEndpoints {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The wallet's endpoints, oldest first (the wallet has at most a few dozen). */
  ofWallet(walletId: string): Promise<WebhookEndpointDoc[]> {
    return this.reads.list<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, {
      partition: walletId,
      order: 'asc',
      limit: 1000,
    });
  }

  /** The worker's verdict on an endpoint failing for the whole retry window. Idempotent. */
  async disable(id: string, reason: string): Promise<void> {
    const handled = unwrap(
      await this.aggregates.handle(webhookEndpointStream(id), endpoint.webhookEndpointDecider, (s) =>
        endpoint.disable(s, { reason, now: this.clock.now() }),
      ),
    );
    if (handled.state.status !== 'none') await this.freeSlot(handled.state.walletId, id, 'disabled');
    await this.projections.waitFor(handled.position, [WEBHOOK_ENDPOINTS_PROJECTION]);
  }

  /**
   * Takes one of the wallet's `max` endpoint slots for a new endpoint, in the wallet's slots
   * aggregate at an expected revision: of many parallel creates, only as many as there are free
   * slots succeed (the rest get `too_many_endpoints`). A full wallet first frees slots a crash
   * left behind (endpoints deleted or disabled since, or never created).
   */
  async takeSlot(walletId: string, endpointId: string, max: number): Promise<void> {
    const stream = webhookEndpointSlotsStream(walletId);
    const { state } = await this.aggregates.load(stream, slots.webhookEndpointSlotsDecider);
    const existing = state.recorded
      ? []
      : (await this.ofWallet(walletId)).filter((e) => e.status === 'enabled').map((e) => e.id);
    const stale = state.taken.size >= max ? await this.staleSlots(state) : [];
    unwrap(
      await this.aggregates.handle(
        stream,
        slots.webhookEndpointSlotsDecider,
        (s) => slots.takeSlot(s, { endpointId, max, now: this.clock.now(), stale, existing }),
        { attempts: 100 },
      ),
    );
  }

  /** Frees the endpoint's slot (deleted, disabled, or its creation failed). Idempotent. */
  async freeSlot(walletId: string, endpointId: string, reason: string): Promise<void> {
    unwrap(
      await this.aggregates.handle(
        webhookEndpointSlotsStream(walletId),
        slots.webhookEndpointSlotsDecider,
        (s) => slots.freeSlot(s, { endpointId, reason, now: this.clock.now() }),
        { attempts: 100 },
      ),
    );
  }

  private async staleSlots(state: slots.WebhookEndpointSlots): Promise<string[]> {
    const now = this.clock.now().getTime();
    const stale: string[] = [];
    for (const [id, takenAt] of state.taken) {
      const { state: s } = await this.aggregates.load(
        webhookEndpointStream(id),
        endpoint.webhookEndpointDecider,
      );
      const orphan = s.status === 'none' && now - Date.parse(takenAt) > ORPHAN_SLOT_MS;
      if (orphan || s.status === 'deleted' || s.status === 'disabled') stale.push(id);
    }
    return stale;
  }
}
