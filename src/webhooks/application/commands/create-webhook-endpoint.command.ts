import { Command } from '@nestjs/cqrs';
import type { Actor } from '../../../shared/actor';
import type { WebhookEnvironment } from '../../domain/webhook.events';
import type { ApiWebhookEndpoint } from '../../projections/webhook-endpoints.projection';

/** Whose wallet an endpoint belongs to. */
export interface EndpointOwner {
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: WebhookEnvironment;
}

/** What POST answers: the only time the signing secret is shown. */
export type CreatedWebhookEndpoint = ApiWebhookEndpoint & { readonly secret: string };

/** Register a URL for the wallet's webhook events (`events` as sent: the domain checks the names). */
export class CreateWebhookEndpoint extends Command<CreatedWebhookEndpoint> {
  constructor(
    readonly owner: EndpointOwner,
    readonly url: string,
    readonly events: readonly unknown[],
    readonly actor?: Actor,
  ) {
    super();
  }
}
