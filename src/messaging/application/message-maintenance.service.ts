import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { ConcurrencyError, EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { InstanceLiveness } from '../../shared/instances/instance-liveness.service';
import { MessageMetrics } from '../../shared/metrics/message.metrics';
import type { NextDue } from '../../shared/polling-loop';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { WalletService } from '../../wallet/application/wallet.service';
import { expire, finishedBy, messageDecider } from '../domain/message.decider';
import { MessageRejectedData, messageStream } from '../domain/message.events';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { Carrier, CARRIER_ROUTES, CarrierRoutes } from '../ports/carrier.port';
import { MESSAGES, MessageDoc } from '../projections/messages.projection';
import {
  OPEN_MESSAGES,
  OPEN_PARTITION,
  openEntrySort,
  OpenEntry,
  openMessageIds,
} from '../projections/open-messages';
import {
  UNQUEUED_PARTITION,
  UNQUEUED_RESERVATIONS,
  UnqueuedReservation,
} from '../projections/open-reservations.projection';

/** Ends messages that had no outcome within their validity (API.md: EXPIRED), oldest deadline first. */
@Injectable()
export class ExpirySweeper {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly metrics: MessageMetrics,
  ) {}

  async runOnce(now: Date = this.clock.now()): Promise<number> {
    return (await this.sweep(now)).expired;
  }

  /**
   * One pass, and when the next open message's validity ends: null when none is open (nothing
   * to expire until a message is), nothing when the pass left past-due messages (it tried as many
   * as one pass may, or a QUEUED one is within its submission's grace), so the sweep looks again soon.
   */
  async sweep(now: Date = this.clock.now()): Promise<{ expired: number; next: NextDue }> {
    let expired = 0;
    let tried = 0;
    for await (const entry of openEntries(this.reads)) {
      const endsAt = Date.parse(entry.validUntil);
      if (endsAt > now.getTime()) return { expired, next: endsAt };
      // A window's messages that ended are taken off it when the read model applies their end.
      for (const messageId of openMessageIds(entry)) {
        if (tried++ === SWEEP_MESSAGES) return { expired, next: undefined };
        const result = await this.aggregates.handle(messageStream(messageId), messageDecider, (state) =>
          // A QUEUED message may be in a submission that started just before its validity ended.
          expire(state, now, this.options.dispatchLeaseMs),
        );
        this.metrics.finished(finishedBy(result));
        if (result.ok && result.value.events.length > 0) expired++;
      }
    }
    return { expired, next: tried === 0 ? null : undefined };
  }
}

/**
 * The open-messages list in order, read one entry first and twice as many each read after: an
 * entry is a window of up to a thousand messages, and the expiry sweep most often needs only the
 * first one (to learn that nothing is due yet).
 */
async function* openEntries(reads: ReadStore): AsyncGenerator<OpenEntry> {
  let afterSort: string | undefined;
  for (let limit = 1; ; limit = Math.min(limit * 2, MAX_OPEN_ENTRIES_A_READ)) {
    const page = await reads.list<OpenEntry>(OPEN_MESSAGES, {
      partition: OPEN_PARTITION,
      order: 'asc',
      limit,
      afterSort,
    });
    yield* page;
    if (page.length < limit) return;
    afterSort = openEntrySort(page[page.length - 1]);
  }
}

const MAX_OPEN_ENTRIES_A_READ = 64;
/** Messages one expiry pass tries at most (a window lists up to a thousand). */
const SWEEP_MESSAGES = 200;

/**
 * Finds reservations whose send crashed between reserving and queuing. For each made by an
 * instance now known dead (its heartbeat stopped), or older than the grace period whoever made
 * it, it appends MessageRejected at no_stream (if the send queued after all, that append loses
 * and the message is left alone), then releases the reservation.
 */
@Injectable()
export class OrphanReaper {
  private readonly logger = new Logger('orphan-reaper');

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly wallets: WalletService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly liveness: InstanceLiveness,
  ) {}

  async runOnce(now: Date = this.clock.now()): Promise<string[]> {
    const candidates = await this.reads.list<UnqueuedReservation>(UNQUEUED_RESERVATIONS, {
      partition: UNQUEUED_PARTITION,
      order: 'asc',
      limit: 200,
    });
    const reaped: string[] = [];
    for (const r of candidates) {
      const pastGrace = Date.parse(r.reservedAt) <= now.getTime() - this.options.orphanGraceMs;
      // A live instance's send may still queue its message: only the grace bounds its wait.
      if (!pastGrace && !(r.instance !== undefined && this.liveness.isDead(r.instance))) continue;
      const stream = messageStream(r.messageId);
      const [first] = await this.events.readStream(stream, { limit: 1 });
      if (first && first.type !== 'MessageRejected') continue; // queued: it settles the normal way
      if (!first) {
        const data: MessageRejectedData = { reason: 'orphaned_reservation', at: now.toISOString() };
        try {
          await this.events.append(stream, [{ type: 'MessageRejected', data }], 'no_stream');
        } catch (error) {
          if (error instanceof ConcurrencyError) continue; // the send queued it just now: leave it alone
          throw error;
        }
      }
      const released = await this.wallets.release(
        r.walletId,
        r.messageId,
        'the send was interrupted before its message was queued',
      );
      if (!released.ok) this.logger.warn(`releasing orphan ${r.messageId} refused: ${released.error.code}`);
      reaped.push(r.messageId);
    }
    return reaped;
  }
}

/**
 * The simulator keeps nothing that matters: after a restart (or a receipt that could not be
 * matched yet) SENT TEST messages without an outcome are submitted to it again, which only
 * re-schedules their receipts under the same derived carrier ids.
 */
@Injectable()
export class TestCarrierResume {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CARRIER_ROUTES) private readonly carriers: CarrierRoutes,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Answers how many it handed over and how many messages were open (none: nothing to resume until one is). */
  async runOnce(minAgeMs = 0): Promise<{ resumed: number; open: number }> {
    const before = this.clock.now().getTime() - minAgeMs;
    let resumed = 0;
    let open = 0;
    for await (const messageId of this.openMessages()) {
      open++;
      const doc = await this.reads.get<MessageDoc>(MESSAGES, messageId);
      if (!doc || doc.status !== 'SENT' || doc.environment !== 'TEST') continue;
      if (!doc.sentAt || Date.parse(doc.sentAt) > before) continue;
      const carrier = this.carriers.carrierFor(doc.carrier, 'TEST') as
        (Carrier & { resubmitIsSafe?: boolean; resubmit?: Carrier['submit'] }) | null;
      if (!carrier || carrier.resubmitIsSafe !== true) continue;
      // Only receipts are re-scheduled (nothing is sent), so the read model's text will do: for a
      // secret message it is the masked one, and the sealed text is never opened for this.
      await (carrier.resubmit ?? carrier.submit).call(carrier, {
        messageId: doc.id,
        to: doc.to,
        senderId: doc.senderId,
        body: doc.body,
        encoding: doc.encoding,
        segments: doc.segments,
        environment: 'TEST',
        validUntil: doc.validUntil,
      });
      resumed++;
    }
    return { resumed, open };
  }

  /**
   * The open messages, those nearest the end of their validity first (the ones waiting longest
   * for an outcome), up to a bound per run: a run costs a read per open message, which beats
   * keeping a list of SENT TEST messages with two writes for each.
   */
  private async *openMessages(): AsyncGenerator<string> {
    let listed = 0;
    for await (const entry of openEntries(this.reads)) {
      const ids = openMessageIds(entry).slice(0, MAX_RESUMED - listed);
      listed += ids.length;
      yield* ids;
      if (listed === MAX_RESUMED) return;
    }
  }
}

/** Open messages one run looks at, at most. */
const MAX_RESUMED = 5000;
