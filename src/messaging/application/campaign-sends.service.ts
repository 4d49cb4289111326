import { Inject, Injectable, Logger } from '@nestjs/common';
import { ComplianceGate } from '../../compliance/application/compliance-gate.service';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import {
  AppendResult,
  ConcurrencyError,
  EVENT_STORE,
  EventStore,
  StreamAppend,
} from '../../shared/event-store/event-store.port';
import { ok } from '../../shared/result';
import { WalletService } from '../../wallet/application/wallet.service';
import { cancel, isMessage, messageDecider } from '../domain/message.decider';
import { messageStream } from '../domain/message.events';
import type { ValidSend } from '../domain/message-input';
import { BUILT_IN_ROUTES } from '../domain/routing';
import { CARRIER_ROUTES, CarrierRoutes } from '../ports/carrier.port';
import { RouteRegistry } from './route-registry.service';
import { queuedAppend, SendContext, SendPipeline } from './send-pipeline.service';
import { CANCELED_REASON } from './settlement.process';
import { TestSendQuota } from './test-send-quota';
import type { SendConditionsView } from './queries/send-conditions.query';

type WalletContext = Extract<SendContext, { mode: 'wallet' }>;

/** One of a campaign's messages: a send its planner validated, under the id derived for it. */
export type CampaignMessage = ValidSend & { readonly messageId: string };

/**
 * Messaging's side of a campaign (the campaigns context asks through commands): the whole
 * campaign's credits held at once (one wallet decision, 402 and nothing otherwise), then its
 * messages written a chunk at a time through the one send path's write (each chunk's
 * reservations taken from the hold, recorded with the messages' MessageQueued or
 * MessageScheduled and the campaign's own progress), and a canceled campaign's SCHEDULED
 * messages canceled. From their first event on they are ordinary messages.
 */
@Injectable()
export class CampaignSends {
  private readonly logger = new Logger('campaign-sends');

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly aggregates: AggregateStore,
    private readonly sends: SendPipeline,
    private readonly routes: RouteRegistry,
    @Inject(CARRIER_ROUTES) private readonly carriers: CarrierRoutes,
    private readonly wallets: WalletService,
    private readonly testQuota: TestSendQuota,
    private readonly compliance: ComplianceGate,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * What every message of a campaign is checked against: the sender ID (LIVE: approved for the
   * account, else 422 sender_id_not_approved and nothing is held), the routes, and the carriers
   * this environment has a connection to.
   */
  async conditions(ctx: WalletContext, senderId: string): Promise<SendConditionsView> {
    const refusal = await this.compliance.senderIdRefusal(ctx, senderId);
    if (refusal) throw refusal;
    const routes = await this.routes.operatorRoutes();
    const names = new Set([...BUILT_IN_ROUTES, ...routes].map((r) => r.carrier));
    const carriers = [...names].filter((name) => this.carriers.carrierFor(name, ctx.environment) !== null);
    return { routes, carriers };
  }

  /**
   * Holds `credits` for the campaign and writes `record` (the campaign's own first events) with
   * the hold. Answers the log position of the record. A hold made before (the same campaign
   * run again under its Idempotency-Key) holds nothing more; its record is then written if missing.
   */
  async hold(
    ctx: WalletContext,
    campaignId: string,
    credits: number,
    messages: number,
    record: readonly StreamAppend[],
  ): Promise<bigint> {
    const now = this.clock.now();
    // TEST credits are free and come back: a TEST campaign counts against the daily quota at once.
    const quotaWallet = ctx.environment === 'TEST' ? ctx.walletId : null;
    if (quotaWallet !== null) await this.testQuota.take(quotaWallet, now.getTime(), messages);
    try {
      const held = await this.wallets.hold(ctx.walletId, campaignId, credits, record);
      if (!held.ok) throw held.error;
      if (held.value.position !== null) return held.value.position;
    } catch (error) {
      if (quotaWallet !== null) this.testQuota.giveBack(quotaWallet, messages);
      throw error;
    }
    if (quotaWallet !== null) this.testQuota.giveBack(quotaWallet, messages);
    return this.appendMissing(record);
  }

  /**
   * Writes a chunk of the campaign's messages: their reservations from the hold, all or none, in
   * one write with their first events and `record` (the campaign's progress, at its stream's
   * revision, so a process that lost the campaign writes nothing). `resumed`: the chunk may have
   * been written in part before an interruption (a store without multi-stream transactions), so
   * messages that exist already are left alone rather than reserved again.
   */
  async queue(
    ctx: WalletContext,
    campaignId: string,
    messages: readonly CampaignMessage[],
    record: readonly StreamAppend[],
    resumed: boolean,
  ): Promise<bigint> {
    let todo = messages;
    if (resumed) {
      const written = await Promise.all(
        todo.map(
          async (m) => (await this.events.readStream(messageStream(m.messageId), { limit: 1 })).length > 0,
        ),
      );
      todo = todo.filter((_, i) => !written[i]);
    }
    const now = this.clock.now();
    const appends = todo.map((m) =>
      queuedAppend(this.sends.queuedData(m, ctx, m.messageId, now, { campaignId }), m.sendAt),
    );
    if (todo.length > 0) {
      const reservations = todo.map((m) => ({ messageId: m.messageId, sms: m.credits }));
      const reserved = await this.wallets.reserveFromHold(ctx.walletId, campaignId, reservations, [
        ...appends,
        ...record,
      ]);
      if (!reserved.ok) throw reserved.error;
      if (reserved.value.position !== null) return reserved.value.position;
    }
    // Reserved before (the chunk is being finished): write what of it is still missing.
    await Promise.all(appends.map((a) => this.appendMissing([a])));
    const [progress] = await this.events.appendAll(record);
    return progress?.position ?? 0n;
  }

  /** Gives back what is left of the campaign's hold (none once every message took its part). */
  async releaseHold(walletId: string, campaignId: string, reason: string): Promise<void> {
    const released = await this.wallets.releaseHold(walletId, campaignId, reason);
    if (!released.ok) this.logger.warn(`releasing hold ${campaignId} refused: ${released.error.code}`);
  }

  /**
   * Cancels those of `messageIds` that are still SCHEDULED (each at its stream's revision: against
   * the dispatcher making it due at the same instant, one of the two lands) and releases their
   * credits; the settlement process releases them too, once. Messages that do not exist, are
   * another wallet's or are no longer SCHEDULED are left alone. Answers how many it canceled and
   * the log position of the last cancel.
   */
  async cancelScheduled(
    scope: { walletId: string; environment: WalletContext['environment'] },
    messageIds: readonly string[],
  ): Promise<{ canceled: number; position: bigint | null }> {
    const now = this.clock.now();
    const outcomes = await Promise.all(
      messageIds.map(async (id) => {
        const handled = await this.aggregates.handle(messageStream(id), messageDecider, (state) =>
          isMessage(state) && state.status === 'SCHEDULED' ? cancel(state, { ...scope, now }) : ok([]),
        );
        if (!handled.ok || handled.value.events.length === 0) return null;
        const released = await this.wallets.release(scope.walletId, id, CANCELED_REASON);
        if (!released.ok) this.logger.warn(`releasing canceled ${id} refused: ${released.error.code}`);
        return handled.value.position;
      }),
    );
    let position: bigint | null = null;
    let canceled = 0;
    for (const p of outcomes) {
      if (p === null) continue;
      canceled++;
      if (position === null || p > position) position = p;
    }
    return { canceled, position };
  }

  private async appendMissing(appends: readonly StreamAppend[]): Promise<bigint> {
    let last: AppendResult | null = null;
    for (const append of appends) {
      try {
        last = await this.events.append(append.streamId, append.events, append.expected);
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || error.streamId !== append.streamId) throw error;
      }
    }
    return last?.position ?? (await this.events.headPosition());
  }
}
