import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError, invalid, notFound } from '../../shared/domain-error';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { ListPage, page } from '../../shared/http/pagination';
import { isIdOf, newId, randomToken } from '../../shared/ids';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import * as endpoint from '../domain/webhook-endpoint.decider';
import { hostOf, parseWebhookUrl } from '../domain/webhook-url';
import {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  webhookEndpointStream,
  WebhookEventType,
} from '../domain/webhook.events';
import { ADDRESS_GUARD, AddressGuard } from '../ports/webhook-sender.port';
import {
  ApiWebhookEndpoint,
  toApiEndpoint,
  WEBHOOK_ENDPOINTS,
  WEBHOOK_ENDPOINTS_PROJECTION,
  WebhookEndpointDoc,
} from '../projections/webhook-endpoints.projection';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../webhooks.options';

export interface EndpointOwner {
  readonly walletId: string;
  readonly accountId: string;
  readonly environment: 'TEST' | 'LIVE';
}

/** What POST answers: the only time the signing secret is shown. */
export type CreatedWebhookEndpoint = ApiWebhookEndpoint & { readonly secret: string };

const unwrap = <T>(result: { ok: true; value: T } | { ok: false; error: DomainError }): T => {
  if (!result.ok) throw result.error;
  return result.value;
};

@Injectable()
export class WebhookEndpoints {
  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    @Inject(ADDRESS_GUARD) private readonly guard: AddressGuard,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(owner: EndpointOwner, body: unknown): Promise<CreatedWebhookEndpoint> {
    const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
    const url = parseWebhookUrl(input.url, owner.environment);
    const events = parseEvents(input.events);
    if (owner.environment === 'LIVE') {
      const problem = await this.guard.check(hostOf(url));
      if (problem) throw invalid('invalid_url', `LIVE webhook endpoints must be public: ${problem}`, 'url');
    }
    const existing = await this.all(owner.walletId);
    if (existing.length >= this.options.maxEndpointsPerWallet) {
      throw invalid(
        'too_many_endpoints',
        `A wallet has at most ${this.options.maxEndpointsPerWallet} webhook endpoints; delete one first`,
      );
    }
    const id = newId('we');
    const data = {
      endpointId: id,
      walletId: owner.walletId,
      accountId: owner.accountId,
      environment: owner.environment,
      url: url.toString(),
      events,
      secret: `whsec_${randomToken(32)}`,
      createdAt: this.clock.now().toISOString(),
    };
    const handled = unwrap(
      await this.aggregates.handle(webhookEndpointStream(id), endpoint.webhookEndpointDecider, (s) =>
        endpoint.create(s, data),
      ),
    );
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

  async list(walletId: string): Promise<ListPage<ApiWebhookEndpoint>> {
    const docs = await this.all(walletId);
    return page(docs.map(toApiEndpoint), docs.length);
  }

  async get(walletId: string, id: unknown): Promise<ApiWebhookEndpoint> {
    const doc = isIdOf('we', id) ? await this.reads.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, id) : null;
    if (!doc || doc.walletId !== walletId) throw notFound('webhook endpoint', 'id');
    return toApiEndpoint(doc);
  }

  /** Another wallet's endpoint is answered exactly like an unknown one. */
  async delete(
    walletId: string,
    id: unknown,
  ): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
    if (!isIdOf('we', id)) throw notFound('webhook endpoint', 'id');
    const handled = unwrap(
      await this.aggregates.handle(webhookEndpointStream(id), endpoint.webhookEndpointDecider, (s) =>
        endpoint.remove(s, { walletId, now: this.clock.now() }),
      ),
    );
    await this.projections.waitFor(handled.position, [WEBHOOK_ENDPOINTS_PROJECTION]);
    return { id, object: 'webhook_endpoint', deleted: true };
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

  private all(walletId: string): Promise<WebhookEndpointDoc[]> {
    return this.reads.list<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, {
      partition: walletId,
      order: 'asc',
      limit: 1000,
    });
  }
}

function parseEvents(value: unknown): WebhookEventType[] {
  const allowed = WEBHOOK_EVENT_TYPES.join(', ');
  if (value === undefined || value === null)
    throw invalid('parameter_missing', `events is required: a list of ${allowed}`, 'events');
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid('parameter_invalid', `events must be a non-empty list of ${allowed}`, 'events');
  }
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
