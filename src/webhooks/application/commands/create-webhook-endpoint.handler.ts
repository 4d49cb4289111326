import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { CLOCK, Clock } from '../../../shared/clock';
import { invalid } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { newId, randomToken } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { unwrap } from '../../../shared/result';
import * as endpoint from '../../domain/webhook-endpoint.decider';
import { hostOf, parseWebhookUrl } from '../../domain/webhook-url';
import {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  webhookEndpointStream,
  WebhookEventType,
} from '../../domain/webhook.events';
import { ADDRESS_GUARD, AddressGuard } from '../../ports/webhook-sender.port';
import { WEBHOOK_ENDPOINTS_PROJECTION } from '../../projections/webhook-endpoints.projection';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../../webhooks.options';
import { WebhookEndpoints } from '../webhook-endpoints.service';
import { CreatedWebhookEndpoint, CreateWebhookEndpoint } from './create-webhook-endpoint.command';

@CommandHandler(CreateWebhookEndpoint)
export class CreateWebhookEndpointHandler implements ICommandHandler<
  CreateWebhookEndpoint,
  CreatedWebhookEndpoint
> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly endpoints: WebhookEndpoints,
    private readonly projections: ProjectionsService,
    @Inject(ADDRESS_GUARD) private readonly guard: AddressGuard,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    owner,
    url: rawUrl,
    events: rawEvents,
    actor,
  }: CreateWebhookEndpoint): Promise<CreatedWebhookEndpoint> {
    const url = parseWebhookUrl(rawUrl, owner.environment);
    const events = parseEvents(rawEvents);
    if (!this.config.webhookAllowPrivateAddresses) {
      const problem = await this.guard.check(hostOf(url));
      if (problem) throw invalid('invalid_url', `Webhook endpoints must be public: ${problem}`, 'url');
    }
    const id = newId('we');
    await this.endpoints.takeSlot(owner.walletId, id, this.options.maxEndpointsPerWallet);
    const data = {
      endpointId: id,
      walletId: owner.walletId,
      accountId: owner.accountId,
      environment: owner.environment,
      url: url.toString(),
      events,
      secret: `whsec_${randomToken(32)}`,
      createdAt: this.clock.now().toISOString(),
      ...(actor ? { actor } : {}),
    };
    const handled = await this.aggregates
      .handle(webhookEndpointStream(id), endpoint.webhookEndpointDecider, (s) => endpoint.create(s, data))
      .then(unwrap)
      .catch(async (error: unknown) => {
        await this.endpoints.freeSlot(owner.walletId, id, 'creation failed').catch(() => undefined);
        throw error;
      });
    await this.projections.waitFor(handled.position, [WEBHOOK_ENDPOINTS_PROJECTION]);
    return {
      id,
      object: 'webhook_endpoint',
      url: data.url,
      events,
      status: 'enabled',
      created_at: data.createdAt,
      secret: data.secret,
    };
  }
}

/** The event names as the domain knows them, in their canonical order, once each. */
function parseEvents(value: readonly unknown[]): WebhookEventType[] {
  const allowed = WEBHOOK_EVENT_TYPES.join(', ');
  if (value.length === 0)
    throw invalid('parameter_invalid', `events must be a non-empty list of ${allowed}`, 'events');
  const unknown = value.find((v) => !isWebhookEventType(v));
  if (unknown !== undefined) {
    throw invalid(
      'invalid_event_type',
      `Unknown event type ${JSON.stringify(unknown).slice(0, 60)}; use ${allowed}`,
      'events',
    );
  }
  return WEBHOOK_EVENT_TYPES.filter((t) => value.includes(t));
}
