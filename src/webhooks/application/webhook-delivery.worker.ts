import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { APP_CONFIG, AppConfig, runsProcessManagersHere } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { WebhookDeliveryResult, WebhookMetrics } from '../../shared/metrics/webhook.metrics';
import { InstanceIdentity } from '../../shared/instances/instance-identity';
import { NextDue, PollingLoop } from '../../shared/polling-loop';
import { ReadModelChanges } from '../../shared/projections/read-model-changes';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { backoffMs, windowExpired } from '../../shared/retry-policy';
import { rotateAfter, roundRobin } from '../domain/fair-share';
import { signatureHeader } from '../domain/webhook-signature';
import { webhookDeliveriesStream, WebhookDeliveryEvent } from '../domain/webhook.events';
import { WEBHOOK_SENDER, WebhookSender } from '../ports/webhook-sender.port';
import { WEBHOOK_ENDPOINTS, WebhookEndpointDoc } from '../projections/webhook-endpoints.projection';
import {
  WEBHOOK_DELIVERIES,
  WEBHOOK_ENDPOINT_HEALTH,
  WEBHOOK_OUTBOX_PROJECTION,
  WebhookDeliveryDoc,
  WebhookEndpointHealthDoc,
  WebhookQueueDoc,
  WEBHOOK_QUEUES,
} from '../projections/webhook-outbox.projection';
import { WEBHOOK_OPTIONS, WebhookOptions } from '../webhooks.options';
import { activeQueuesByWallet } from './active-queues';
import { WebhookDeliveryClaims } from './webhook-delivery-claims';
import { WebhookEndpoints } from './webhook-endpoints.service';

/** A delivery the tick may start, and whose wallet's share it counts against. */
interface Work {
  readonly delivery: WebhookDeliveryDoc;
  readonly walletId: string;
  readonly run: () => Promise<void>;
}

const RESULTS: Record<WebhookDeliveryEvent['type'], WebhookDeliveryResult> = {
  WebhookDeliverySucceeded: 'succeeded',
  WebhookDeliveryFailed: 'failed',
  WebhookDeliveryAbandoned: 'abandoned',
};

/**
 * Delivers the durable outbox, at least once. Each tick looks at every endpoint with pending
 * deliveries; per (endpoint, subject) only the oldest pending delivery may go, so a message's
 * later state never overtakes an earlier one that is not acknowledged yet. Each endpoint has a
 * few deliveries in flight at most, each wallet a share of the slots, each delivery bounded by
 * a timeout, so a slow receiver holds up only its own wallet's share. Outcomes are recorded as events; the outbox read model follows them. An attempt
 * cut short by a shutdown records nothing and is simply made again after the restart.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('webhooks');
  private readonly inFlight = new Map<
    string,
    { endpointId: string; walletId: string; done: Promise<void> }
  >();
  /** The wallet offered slots first on the last tick: the next tick starts after it. */
  private servedFirst: string | null = null;
  private readonly abort = new AbortController();
  private readonly loop: PollingLoop;
  private readonly claims: WebhookDeliveryClaims;
  private stopped = true;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    private readonly endpoints: WebhookEndpoints,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: WebhookMetrics,
    instance: InstanceIdentity,
    changes: ReadModelChanges,
  ) {
    // A claim outlives the longest attempt (the receiver's timeout) with room to record its outcome.
    this.claims = new WebhookDeliveryClaims(events, instance.id, options.timeoutMs * 2 + 5_000);
    // Every delivery in flight listens for the shutdown on this one signal, and stops listening
    // when it ends: up to totalConcurrency listeners, not a leak (Node warns past 10).
    setMaxListeners(options.totalConcurrency + 1, this.abort.signal);
    // Rests while nothing is pending or every pending delivery waits for its retry time; a new
    // delivery (or an outcome) wakes it through the outbox read model.
    this.loop = new PollingLoop(
      options.pollMs,
      () => this.tick(),
      (error) => this.logger.warn(`webhook outbox tick failed: ${error.message}`),
      { restMs: config.idlePollMs, wakeOn: (wake) => changes.on([WEBHOOK_QUEUES, WEBHOOK_DELIVERIES], wake) },
    );
  }

  onApplicationBootstrap(): void {
    if (!runsProcessManagersHere(this.config)) return;
    this.stopped = false;
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
  }

  /**
   * One look at the outbox; starts every delivery that may go now, sharing the slots fairly:
   * each wallet has at most its share in flight, the wallets with work take turns (one delivery
   * each per round, the first turn moving on every tick), and within a wallet so do its
   * endpoints. Endpoints that never answer therefore hold their own wallet's share at most.
   * Answers when the next pending delivery's retry falls due (null: nothing pending), or nothing
   * while deliveries are in flight or waiting for a slot. Exposed for tests.
   */
  async tick(): Promise<NextDue> {
    const now = this.clock.now();
    const byWallet = await activeQueuesByWallet(this.reads);
    const later = { at: Number.POSITIVE_INFINITY, blocked: false };
    const busyEndpoint = new Map<string, number>();
    const busyWallet = new Map<string, number>();
    for (const f of this.inFlight.values()) {
      busyEndpoint.set(f.endpointId, (busyEndpoint.get(f.endpointId) ?? 0) + 1);
      busyWallet.set(f.walletId, (busyWallet.get(f.walletId) ?? 0) + 1);
    }
    const order = rotateAfter([...byWallet.keys()].sort(), this.servedFirst);
    this.servedFirst = order[0] ?? null;
    const free = this.options.totalConcurrency - this.inFlight.size;
    const perWallet: Work[][] = [];
    let offered = 0;
    for (const walletId of order) {
      if (this.stopped || offered >= free) break;
      const room = this.options.perWalletConcurrency - (busyWallet.get(walletId) ?? 0);
      if (room <= 0) continue;
      const work = await this.readyWork(byWallet.get(walletId)!, busyEndpoint, now, room, later);
      perWallet.push(work);
      offered += work.length;
    }
    if (this.stopped) return undefined;
    for (const work of roundRobin(perWallet, this.options.totalConcurrency - this.inFlight.size)) {
      if (!this.inFlight.has(work.delivery.id)) this.start(work.delivery, work.walletId, work.run);
    }
    if (this.inFlight.size > 0 || offered > 0 || later.blocked) return undefined;
    return later.at === Number.POSITIVE_INFINITY ? null : later.at;
  }

  /** What one wallet's endpoints may start now, at most `room`, its endpoints taking turns. */
  private async readyWork(
    queues: readonly WebhookQueueDoc[],
    busyEndpoint: ReadonlyMap<string, number>,
    now: Date,
    room: number,
    /** What is left for later: the soonest retry time, and whether any waits for a slot instead. */
    later: { at: number; blocked: boolean },
  ): Promise<Work[]> {
    const perEndpoint: Work[][] = [];
    for (const queue of queues) {
      let busy = busyEndpoint.get(queue.endpointId) ?? 0;
      if (busy >= this.options.perEndpointConcurrency) {
        later.blocked = true;
        continue;
      }
      const pending = await this.reads.list<WebhookDeliveryDoc>(WEBHOOK_DELIVERIES, {
        partition: queue.endpointId,
        order: 'asc',
        limit: 200,
      });
      if (pending.length === 0) continue;
      const endpoint = await this.reads.get<WebhookEndpointDoc>(WEBHOOK_ENDPOINTS, queue.endpointId);
      const work: Work[] = [];
      const seen = new Set<string>();
      for (const delivery of pending) {
        if (delivery.status !== 'pending') continue;
        // Only the oldest pending delivery of each subject may go (per-message order).
        if (seen.has(delivery.subject)) continue;
        seen.add(delivery.subject);
        if (this.inFlight.has(delivery.id)) continue;
        if (!endpoint || endpoint.status !== 'enabled') {
          const reason = endpoint ? 'endpoint disabled' : 'endpoint deleted';
          work.push({ delivery, walletId: delivery.walletId, run: () => this.abandon(delivery, reason) });
          continue;
        }
        const nextAttemptAt = Date.parse(delivery.nextAttemptAt);
        if (nextAttemptAt > now.getTime()) {
          later.at = Math.min(later.at, nextAttemptAt);
          continue;
        }
        if (busy >= this.options.perEndpointConcurrency) {
          later.blocked = true;
          break;
        }
        busy++;
        work.push({ delivery, walletId: endpoint.walletId, run: () => this.deliver(delivery, endpoint) });
      }
      perEndpoint.push(work);
    }
    return roundRobin(perEndpoint, room);
  }

  private start(delivery: WebhookDeliveryDoc, walletId: string, work: () => Promise<void>): void {
    const done = work()
      .catch((error) =>
        this.logger.warn(`webhook ${delivery.id} attempt failed to record: ${(error as Error).message}`),
      )
      .finally(() => this.inFlight.delete(delivery.id));
    this.inFlight.set(delivery.id, { endpointId: delivery.endpointId, walletId, done });
  }

  private async deliver(delivery: WebhookDeliveryDoc, endpoint: WebhookEndpointDoc): Promise<void> {
    // Another process sharing the store may have this attempt: it delivers, this one does not.
    if (!(await this.claims.claim(delivery.id, delivery.attempts + 1, this.clock.now()))) return;
    const body = JSON.stringify(delivery.event);
    const startedAt = this.clock.now();
    const response = await this.sender.send({
      url: endpoint.url,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'sms-wallet-webhooks/1.0',
        'sms-signature': signatureHeader(endpoint.secret, body, startedAt),
      },
      publicOnly: !this.config.webhookAllowPrivateAddresses,
      timeoutMs: this.options.timeoutMs,
      signal: this.abort.signal,
    });
    if (this.stopped) return; // cut short by the shutdown: not an attempt; made again after the restart
    const now = this.clock.now();
    const attempt = delivery.attempts + 1;
    if (response.status !== null && response.status >= 200 && response.status < 300) {
      await this.recordOutcome(delivery, {
        type: 'WebhookDeliverySucceeded',
        data: { evtId: delivery.evtId, attempt, statusCode: response.status, at: now.toISOString() },
      });
      return;
    }
    const error = response.error ?? `HTTP ${response.status}`;
    if (windowExpired(this.options.retry, delivery.firstAttemptAt, now)) {
      await this.recordOutcome(delivery, {
        type: 'WebhookDeliveryAbandoned',
        data: {
          evtId: delivery.evtId,
          reason: `retried for the whole window; last: ${error}`,
          at: now.toISOString(),
        },
      });
    } else {
      const nextAttemptAt = new Date(now.getTime() + backoffMs(this.options.retry, attempt)).toISOString();
      await this.recordOutcome(delivery, {
        type: 'WebhookDeliveryFailed',
        data: {
          evtId: delivery.evtId,
          attempt,
          statusCode: response.status,
          error,
          at: now.toISOString(),
          nextAttemptAt,
        },
      });
    }
    const health = await this.reads.get<WebhookEndpointHealthDoc>(WEBHOOK_ENDPOINT_HEALTH, endpoint.id);
    if (windowExpired(this.options.retry, health?.failingSince ?? null, now)) {
      this.logger.warn(
        `webhook endpoint ${endpoint.id} failed continuously since ${health?.failingSince}; disabling it`,
      );
      await this.endpoints.disable(
        endpoint.id,
        `failing continuously since ${health?.failingSince}; last: ${error}`,
      );
    }
  }

  private async abandon(delivery: WebhookDeliveryDoc, reason: string): Promise<void> {
    await this.recordOutcome(delivery, {
      type: 'WebhookDeliveryAbandoned',
      data: { evtId: delivery.evtId, reason, at: this.clock.now().toISOString() },
    });
  }

  /** Records the outcome, then waits for the outbox to show it, so the delivery is not picked again. */
  private async recordOutcome(delivery: WebhookDeliveryDoc, event: WebhookDeliveryEvent): Promise<void> {
    const appended = await this.events.append(webhookDeliveriesStream(delivery.endpointId), [event], 'any');
    this.metrics.delivered(RESULTS[event.type]);
    if (this.stopped) return;
    await this.projections.waitFor(appended.position, [WEBHOOK_OUTBOX_PROJECTION]);
  }
}
