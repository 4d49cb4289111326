import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { isIdOf } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { unwrap } from '../../../shared/result';
import * as endpoint from '../../domain/webhook-endpoint.decider';
import { webhookEndpointStream } from '../../domain/webhook.events';
import { WEBHOOK_ENDPOINTS_PROJECTION } from '../../projections/webhook-endpoints.projection';
import { WebhookEndpoints } from '../webhook-endpoints.service';
import { DeletedWebhookEndpoint, DeleteWebhookEndpoint } from './delete-webhook-endpoint.command';

@CommandHandler(DeleteWebhookEndpoint)
export class DeleteWebhookEndpointHandler implements ICommandHandler<
  DeleteWebhookEndpoint,
  DeletedWebhookEndpoint
> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly projections: ProjectionsService,
    private readonly endpoints: WebhookEndpoints,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, id, actor }: DeleteWebhookEndpoint): Promise<DeletedWebhookEndpoint> {
    if (!isIdOf('we', id)) throw notFound('webhook endpoint', 'id');
    const handled = unwrap(
      await this.aggregates.handle(webhookEndpointStream(id), endpoint.webhookEndpointDecider, (s) =>
        endpoint.remove(s, { walletId, actor, now: this.clock.now() }),
      ),
    );
    await this.endpoints.freeSlot(walletId, id, 'deleted');
    await this.projections.waitFor(handled.position, [WEBHOOK_ENDPOINTS_PROJECTION]);
    return { id, object: 'webhook_endpoint', deleted: true };
  }
}
