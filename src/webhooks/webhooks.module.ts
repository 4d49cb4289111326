import { Inject, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { EVENT_STORE, EventStore } from '../shared/event-store/event-store.port';
import { ProjectionsService } from '../shared/projections/projections.service';
import { DnsAddressGuard, DnsHostResolver, HttpWebhookSender } from './adapters/http-webhook-sender.adapter';
import { WebhookDeliveryWorker } from './application/webhook-delivery.worker';
import { WebhookEndpoints } from './application/webhook-endpoints.service';
import { webhookEventsProcess } from './application/webhook-events.process';
import { CreateWebhookEndpointHandler } from './application/commands/create-webhook-endpoint.handler';
import { DeleteWebhookEndpointHandler } from './application/commands/delete-webhook-endpoint.handler';
import { WebhookEndpointByIdHandler } from './application/queries/webhook-endpoint-by-id.handler';
import { WebhookEndpointsListHandler } from './application/queries/webhook-endpoints-list.handler';
import { WebhookEventsPageHandler } from './application/queries/webhook-events-page.handler';
import { WebhookEndpointsHttpController, WebhookEventsHttpController } from './http/webhooks.http.controller';
import { ADDRESS_GUARD, HOST_RESOLVER, WEBHOOK_SENDER } from './ports/webhook-sender.port';
import { webhookEndpointsProjection } from './projections/webhook-endpoints.projection';
import { webhookOutboxProjection } from './projections/webhook-outbox.projection';
import { loadWebhookOptions, WEBHOOK_OPTIONS } from './webhooks.options';

/**
 * Webhooks (API.md): endpoints per wallet, the wallet's events recorded from the log by a
 * process manager, and at-least-once signed delivery through a durable outbox.
 */
@Module({
  controllers: [WebhookEndpointsHttpController, WebhookEventsHttpController],
  providers: [
    { provide: WEBHOOK_OPTIONS, useFactory: () => loadWebhookOptions() },
    { provide: HOST_RESOLVER, useClass: DnsHostResolver },
    { provide: WEBHOOK_SENDER, useClass: HttpWebhookSender },
    { provide: ADDRESS_GUARD, useClass: DnsAddressGuard },
    WebhookEndpoints,
    WebhookDeliveryWorker,
    CreateWebhookEndpointHandler,
    DeleteWebhookEndpointHandler,
    WebhookEndpointsListHandler,
    WebhookEndpointByIdHandler,
    WebhookEventsPageHandler,
  ],
})
export class WebhooksModule implements OnApplicationBootstrap {
  constructor(
    projections: ProjectionsService,
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    projections.register(
      webhookEndpointsProjection,
      webhookOutboxProjection,
      webhookEventsProcess(events, config.publicUrl),
    );
  }

  /** An operator must see that the SSRF guard is off (once per server, from its HTTP thread). */
  onApplicationBootstrap(): void {
    if (this.config.webhookAllowPrivateAddresses && this.config.threadRole !== 'worker') {
      new Logger('webhooks').warn(
        'WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true: webhook endpoints may reach loopback, private and ' +
          'link-local addresses (for local development only; never in production)',
      );
    }
  }
}
