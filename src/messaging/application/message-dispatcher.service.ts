import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { ComplianceGate } from '../../compliance/application/compliance-gate.service';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import { randomToken } from '../../shared/ids';
import { InstanceLiveness } from '../../shared/instances/instance-liveness.service';
import { type DispatchBacklog, MessageMetrics } from '../../shared/metrics/message.metrics';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { SECRET_BOX, SecretBox } from '../../shared/secret-box';
import { partitionOf } from '../domain/dispatch-leases.decider';
import {
  finishedBy,
  Message,
  messageDecider,
  MessageState,
  queueDue,
  readyToSubmit,
  recordSubmitResult,
} from '../domain/message.decider';
import { MessageEvent, messageStream } from '../domain/message.events';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { CARRIER_ROUTES, CarrierRoutes, OutboundMessage, SubmitResult } from '../ports/carrier.port';
import { DispatchLeaseKeeper } from './dispatch-lease-keeper';
import { HintQueue } from './hint-queue';
import { RecentSubmissions } from './recent-submissions';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { NextDue, PollingLoop } from '../../shared/polling-loop';
import { ReadModelChanges } from '../../shared/projections/read-model-changes';

/**
 * The durable "to dispatch" list: one partition per dispatch partition (`pending-<n>`), sorted by
 * when the message may next be tried. What a dispatcher that takes a partition over, or starts
 * again, reads to find the work it has not been told about.
 */
export const DISPATCH_QUEUE = 'message-dispatch';
export const pendingPartition = (partition: number) => `pending-${partition}`;

export interface PendingDispatch {
  readonly messageId: string;
  /** ISO time from which it may be tried (creation, a scheduled send_at, or a carrier's retryAt). */
  readonly availableAt: string;
}

/**
 * A message due later than this is left to the polls (which look one poll interval ahead) rather
 * than given a timer of its own: a send scheduled days ahead holds no memory until its time nears.
 */
const WAKE_UP_WINDOW_MS = 5 * 60_000;

export const outboundOf = (m: Message): OutboundMessage => ({
  messageId: m.messageId,
  to: m.to,
  senderId: m.senderId,
  body: m.body,
  encoding: m.encoding,
  segments: m.segments,
  environment: m.environment,
  validUntil: m.validUntil,
});

/**
 * So many hints waiting for a submission slot and the poll has nothing to add: it looks again
 * after its interval rather than list (and read) pages of messages that are all hinted already.
 */
const BUSY_HINTS = 2_000;

/**
 * A queued message's state is remembered for its submission only while fewer hints than this
 * wait before it: behind a campaign 100,000 wait, and remembering each as it is queued pushed
 * out of the aggregate store's 10,000 the states of the messages being sent and reported on
 * then, long before the last ones' turn came.
 */
const REMEMBER_WHILE_WAITING = 2_000;

/** A message hinted to the dispatcher, and whether its state must be read before it is submitted. */
interface Hinted {
  /**
   * Its MessageQueued was seen while this process held its partition, which it took at this time
   * (epoch ms): while it still holds it since then, nobody else can have sent the message.
   * Undefined: its state is read before it is submitted.
   */
  readonly heldSince: number | undefined;
}

/**
 * Submits queued messages to their carrier, off the request path. Each process submits only the
 * messages of the partitions it holds a dispatch lease on (DispatchLeaseKeeper), so two
 * processes never submit the same message and nothing per message is recorded but its result:
 * MessageSent, MessageFailed or MessageSubmitDeferred. Work comes from hints (the dispatch
 * projection sees MessageQueued go by: prompt, and its state is known without a read) and from
 * the durable pending list of the partitions it holds (a partition taken over, a restart, a
 * carrier's retryAt), whose messages' states are read first.
 */
@Injectable()
export class MessageDispatcher {
  /** The lease holder: this process's instance (its heartbeat says whether it lives). */
  readonly dispatcherId: string;
  private readonly logger = new Logger('dispatcher');
  private running = false;
  private readonly queued = new HintQueue<Hinted>();
  /** The last hint's trust, shared: the 100,000 hints behind a campaign hold one object, not one each. */
  private lastHinted: Hinted = { heldSince: undefined };
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Looks at the pending list of the partitions held: while it has work, then resting (PollingLoop). */
  private readonly poll: PollingLoop;
  /** Wake-ups at a message's time (a carrier's retryAt, a scheduled send_at): one per message. */
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private readonly leases: DispatchLeaseKeeper;

  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CARRIER_ROUTES) private readonly carriers: CarrierRoutes,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly submissions: RecentSubmissions,
    private readonly metrics: MessageMetrics,
    /** Absent only where a test runs several dispatchers in one process without heartbeats. */
    liveness?: InstanceLiveness,
    /** Asked again at dispatch (refusedSinceAccepted); absent in tests without compliance. */
    @Optional() private readonly compliance?: ComplianceGate,
    /** Opens a secret message's sealed text; absent where a test sends no secret message. */
    @Optional() @Inject(SECRET_BOX) private readonly secrets?: SecretBox,
    /** Without them (tests that build dispatchers by hand) the pending list is polled plainly. */
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
    @Optional() changes?: ReadModelChanges,
  ) {
    this.dispatcherId = liveness?.id ?? `dsp_${process.pid}_${randomToken(8)}`;
    this.leases = new DispatchLeaseKeeper(
      aggregates,
      clock,
      {
        holder: this.dispatcherId,
        partitionCount: options.dispatchPartitions,
        leaseMs: options.dispatchLeaseMs,
        renewMs: options.dispatchLeaseRenewMs,
        // A submission must end well before the lease could pass to another process.
        marginMs: Math.min(options.dispatchLeaseMs / 3, 5_000),
      },
      {
        acquired: (partitions) => void this.pollPartitions(partitions),
        busy: () => new Set([...this.inFlight.keys()].map((id) => this.partitionOf(id))),
        dead: liveness && (() => liveness.deadInstances()),
        fresh: liveness && (() => liveness.fresh()),
        logger: this.logger,
      },
    );
    // An instance found dead frees the partitions it held: take them now, not at the next renewal.
    liveness?.onDeaths(() => this.leases.renewSoon());
    this.poll = new PollingLoop(
      options.dispatchPollMs,
      () => this.pollPartitions(this.leases.partitions()),
      (error) => this.logger.error('polling the dispatch queue failed', error?.stack),
      config && changes
        ? { restMs: config.idlePollMs, wakeOn: (wake) => changes.on([DISPATCH_QUEUE], wake) }
        : undefined,
    );
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.leases.start();
    this.poll.start();
  }

  /** Stops taking work, waits for submissions in flight, then gives the partitions back. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.poll.stop();
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    this.queued.clear();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.leases.stop();
  }

  /** What is left to dispatch: the durable list (every process's) and what this one holds in memory. */
  async backlog(): Promise<DispatchBacklog> {
    let pending = 0;
    for (let partition = 0; partition < this.options.dispatchPartitions; partition++) {
      pending += await this.reads.count(DISPATCH_QUEUE, pendingPartition(partition));
    }
    return {
      pending,
      waiting: this.queued.size,
      submitting: this.inFlight.size,
      wakeUps: this.retryTimers.size,
    };
  }

  /** Whether a message hinted now will be submitted soon enough for its state to be worth keeping. */
  turnIsNear(): boolean {
    return this.queued.size < REMEMBER_WHILE_WAITING;
  }

  /** The dispatch partitions this process holds now. */
  heldPartitions(): number[] {
    return this.leases.partitions().sort((a, b) => a - b);
  }

  partitionOf(messageId: string): number {
    return partitionOf(messageId, this.options.dispatchPartitions);
  }

  /**
   * A message of this process's partitions may be ready: try it now (or at `at`). `queuedAt` is
   * when its MessageQueued was recorded, when the caller saw that event itself: if this process
   * held the partition by then, the state the caller remembered is current.
   */
  hint(messageId: string, options: { at?: string; queuedAt?: Date } = {}): void {
    const partition = this.partitionOf(messageId);
    if (!this.running || !this.leases.holds(partition)) return; // its holder's dispatcher has it
    const delay = options.at ? Date.parse(options.at) - this.clock.now().getTime() : 0;
    if (delay > 0) {
      if (delay > WAKE_UP_WINDOW_MS) return; // a poll nearer the time wakes it
      clearTimeout(this.retryTimers.get(messageId));
      const timer = setTimeout(() => {
        this.retryTimers.delete(messageId);
        this.hint(messageId);
      }, delay);
      timer.unref?.();
      this.retryTimers.set(messageId, timer);
      return;
    }
    const since = this.leases.heldSince(partition);
    const trusted =
      options.queuedAt !== undefined && since !== undefined && options.queuedAt.getTime() >= since;
    // Hinted again: trusted only if every hint was (a hint from the poll never is).
    const earlier = this.queued.get(messageId);
    const keepsTrust = trusted && (earlier === undefined || earlier.heldSince === since);
    this.queued.set(messageId, this.hinted(keepsTrust ? since : undefined));
    this.pump();
  }

  private hinted(heldSince: number | undefined): Hinted {
    if (this.lastHinted.heldSince !== heldSince) this.lastHinted = { heldSince };
    return this.lastHinted;
  }

  /**
   * The message was canceled, sent or ended (the dispatch process manager saw it): its wake-up
   * timer and any hint waiting for a slot go, rather than firing later to find nothing to do.
   */
  forget(messageId: string): void {
    const timer = this.retryTimers.get(messageId);
    if (timer) clearTimeout(timer);
    this.retryTimers.delete(messageId);
    this.queued.delete(messageId);
  }

  private pump(): void {
    while (this.running && this.inFlight.size < this.options.dispatchConcurrency) {
      const next = this.queued.take();
      if (!next) return;
      const [messageId, hinted] = next;
      if (this.inFlight.has(messageId)) continue;
      const run = this.dispatch(messageId, hinted)
        .catch((error) => this.logger.error(`dispatching ${messageId} failed`, (error as Error)?.stack))
        .finally(() => {
          this.inFlight.delete(messageId);
          this.pump();
        });
      this.inFlight.set(messageId, run);
    }
  }

  /**
   * Hints every pending message of these partitions whose time has come (states read first), and
   * sets a wake-up for those due before the next poll, so a scheduled send leaves at its time.
   * Answers when the next one falls due (null: none pending), so that the poll rests until then
   * rather than look every second at an empty list; a message queued meanwhile is hinted by the
   * dispatch projection, and its pending entry wakes the poll (ReadModelChanges).
   */
  async pollPartitions(partitions: readonly number[]): Promise<NextDue> {
    // Under a campaign's load every pending message was hinted as it was queued.
    if (this.queued.size >= BUSY_HINTS) return undefined;
    let next: number | null = null;
    try {
      const now = this.clock.now();
      const nextPoll = new Date(now.getTime() + this.options.dispatchPollMs).toISOString();
      for (const partition of partitions) {
        const pending = await this.reads.list<PendingDispatch>(DISPATCH_QUEUE, {
          partition: pendingPartition(partition),
          order: 'asc',
          limit: 500,
        });
        if (pending.length > 0) next = Math.min(next ?? Infinity, Date.parse(pending[0].availableAt));
        for (const p of pending) {
          if (p.availableAt > nextPoll) break;
          // Hinted or being submitted already: the hint that stands is as good, or better (trusted).
          if (this.queued.has(p.messageId) || this.inFlight.has(p.messageId)) continue;
          this.hint(p.messageId, { at: p.availableAt });
        }
      }
    } catch (error) {
      this.logger.error('polling the dispatch queue failed', (error as Error)?.stack);
      return undefined; // looked at nothing: look again after the interval
    }
    // Due already (being sent, or a submission that failed and is tried again): keep looking.
    return next === null ? null : Math.max(next - this.options.dispatchPollMs, this.clock.now().getTime());
  }

  /** Submit and record. Returns quietly when the message is no longer QUEUED or not yet due. */
  async dispatch(messageId: string, hinted: Hinted = { heldSince: undefined }): Promise<void> {
    const partition = this.partitionOf(messageId);
    if (!this.leases.holds(partition)) return;
    const stream = messageStream(messageId);
    // The partition was given up and taken again since the hint: someone else may have sent it.
    const trusted = hinted.heldSince !== undefined && this.leases.heldSince(partition) === hinted.heldSince;
    let { state } = await this.aggregates.state(stream, messageDecider, { trustRemembered: trusted });
    if (state.status === 'SCHEDULED') {
      const made = await this.makeDue(messageId, state.sendAt);
      if (!made) return;
      state = made;
    }
    const ready = readyToSubmit(state, { dispatcherId: this.dispatcherId, now: this.clock.now() });
    if (!ready.ok) {
      // Not now: SENT or ended already, past its validity (the expiry sweep ends it), or deferred.
      const retryAt = ready.error.code === 'submit_deferred' && 'retryAt' in state ? state.retryAt : null;
      if (retryAt) this.hint(messageId, { at: retryAt });
      return;
    }
    const message = ready.value;
    // Reading the state took a while: still this process's partition, and its heartbeat fresh?
    if (!this.leases.holds(this.partitionOf(messageId))) return;
    const result = (await this.refusedSinceAccepted(message)) ?? (await this.submit(message));
    const recording = this.aggregates.handle(stream, messageDecider, (s) =>
      recordSubmitResult(s, { dispatcherId: this.dispatcherId, result, now: this.clock.now() }),
    );
    if (result.outcome === 'accepted') {
      const recordedOk = recording.then((r) => r.ok);
      this.submissions.remember(
        message.environment,
        message.carrier,
        result.carrierMessageIds,
        messageId,
        recordedOk,
      );
    }
    const recorded = await recording;
    this.metrics.finished(finishedBy(recorded)); // a carrier's rejection: QUEUED → FAILED
    if (!recorded.ok) this.logger.warn(`submit result for ${messageId} not recorded: ${recorded.error.code}`);
  }

  /**
   * A scheduled message's time came: MessageDue is recorded at the revision it was decided on
   * before anything is submitted, so a cancel at the same instant either lands first (then this
   * finds it CANCELED and submits nothing) or finds it QUEUED and is refused. Answers the state
   * to submit from, or null when it is not due yet (woken again at its time).
   */
  private async makeDue(messageId: string, sendAt: string | null): Promise<MessageState | null> {
    const handled = await this.aggregates.handle(messageStream(messageId), messageDecider, (s) =>
      queueDue(s, { now: this.clock.now() }),
    );
    if (handled.ok) return handled.value.state;
    if (handled.error.code === 'message_not_due' && sendAt) this.hint(messageId, { at: sendAt });
    return null;
  }

  /**
   * What compliance says now of a message accepted earlier: it is not sent, but fails as a
   * carrier's refusal would, and settlement releases its credits.
   * - A LIVE message's sender ID must still be approved: an operator may withdraw an approval
   *   (`sender-ids:reject`) after it was scheduled, or while it waits for a carrier (issue 28).
   *   One indexed read of the sender ID's newest event; a TEST message reads nothing.
   * - A scheduled promotional message whose recipient replied STOP (or was put on the list)
   *   since. A message sent at once was checked moments before, at its accept, so only
   *   scheduled ones pay this read.
   */
  private async refusedSinceAccepted(message: Message): Promise<SubmitResult | null> {
    if (!this.compliance) return null;
    const refusal =
      (await this.compliance.senderIdRefusal(message, message.senderId)) ??
      (message.sendAt === null
        ? null
        : await this.compliance.recipientRefusal(message, message.to, message.type));
    return refusal ? { outcome: 'rejected', errorCode: refusal.code, errorMessage: refusal.message } : null;
  }

  /**
   * What the carrier is handed. A secret message's text is opened here, the moment before the
   * submission, and lives only in this call: the log, read models and logs hold it sealed or masked.
   */
  private outbound(message: Message): OutboundMessage {
    const outbound = outboundOf(message);
    if (message.sealedBody === undefined) return outbound;
    if (!this.secrets) throw new Error('a secret message needs the SecretBox to be opened');
    return { ...outbound, body: this.secrets.open(message.sealedBody) };
  }

  private async submit(message: Message): Promise<SubmitResult> {
    const carrier = this.carriers.carrierFor(message.carrier, message.environment);
    if (!carrier) {
      return {
        outcome: 'retry',
        afterMs: 30_000,
        reason: `no ${message.environment} connection to ${message.carrier}`,
      };
    }
    try {
      return await carrier.submit(this.outbound(message));
    } catch (error) {
      return {
        outcome: 'retry',
        afterMs: 5000,
        reason: `submit failed: ${(error as Error)?.message ?? 'unknown'}`,
      };
    }
  }
}

/**
 * The dispatcher's process manager: keeps the durable pending list, per dispatch partition, from
 * the message events, and hands each new message to the dispatcher at once with its state.
 */
export function dispatchProjection(dispatcher: MessageDispatcher, aggregates: AggregateStore): Projection {
  const put = (view: ProjectionView, messageId: string, availableAt: string) =>
    view.put(DISPATCH_QUEUE, messageId, { messageId, availableAt } satisfies PendingDispatch, {
      partition: pendingPartition(dispatcher.partitionOf(messageId)),
      sort: `${availableAt}|${messageId}`,
    });
  return {
    name: 'message-dispatcher',
    kind: 'process-manager',
    collections: [DISPATCH_QUEUE],
    filter: {
      streamPrefixes: ['message-'],
      eventTypes: [
        'MessageQueued',
        'MessageScheduled',
        'MessageCanceled',
        'MessageSubmitDeferred',
        'MessageSent',
        'MessageDelivered',
        'MessageFailed',
        'MessageExpired',
      ],
    },
    async apply(recorded: RecordedEvent, view: ProjectionView) {
      const event = recorded as unknown as MessageEvent;
      const messageId = recorded.streamId.slice('message-'.length);
      switch (event.type) {
        case 'MessageQueued':
          put(view, messageId, event.data.createdAt);
          if (dispatcher.turnIsNear())
            aggregates.remember(recorded.streamId, messageDecider, {
              state: messageDecider.evolve(messageDecider.initialState(), event),
              revision: recorded.revision,
            });
          dispatcher.hint(messageId, { queuedAt: recorded.recordedAt });
          return;
        case 'MessageScheduled':
          // Waits on the pending list until its send_at; the poll before then sets its wake-up.
          put(view, messageId, event.data.sendAt);
          dispatcher.hint(messageId, { at: event.data.sendAt });
          return;
        case 'MessageSubmitDeferred':
          if (await view.get(DISPATCH_QUEUE, messageId)) put(view, messageId, event.data.retryAt);
          dispatcher.hint(messageId, { at: event.data.retryAt });
          return;
        case 'MessageDelivered':
          return; // only ever after MessageSent, which took it off the list
        default:
          // Canceled, sent or ended: off the list, and no wake-up left behind (issue 28).
          view.delete(DISPATCH_QUEUE, messageId);
          dispatcher.forget(messageId);
      }
    },
  };
}
