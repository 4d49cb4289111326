import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { unwrap } from '../../shared/result';
import * as endpoint from '../domain/webhook-endpoint.decider';
import { webhookEndpointStream } from '../domain/webhook.events';
import {
  WEBHOOK_ENDPOINTS,
  WEBHOOK_ENDPOINTS_PROJECTION,
  WebhookEndpointDoc,
} from '../projections/webhook-endpoints.projection';

/** What the endpoint use cases and the delivery worker share: a wallet's endpoints, and disabling one. */
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
    await this.projections.waitFor(handled.position, [WEBHOOK_ENDPOINTS_PROJECTION]);
  }
}
