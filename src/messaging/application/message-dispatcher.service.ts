import { Inject, Injectable, Logger } from '@nestjs/common';
import { hostname } from 'node:os';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { ConcurrencyError, RecordedEvent } from '../../shared/event-store/event-store.port';
import { randomToken } from '../../shared/ids';
import { type DispatchBacklog, MessageMetrics } from '../../shared/metrics/message.metrics';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { claim, finishedBy, Message, messageDecider, recordSubmitResult } from '../domain/message.decider';
import { MessageEvent, messageStream } from '../domain/message.events';
import { MESSAGING_OPTIONS, MessagingOptions } from '../messaging.options';
import { RecentSubmissions } from './recent-submissions';
import { CARRIER_ROUTES, CarrierRoutes, OutboundMessage, SubmitResult } from '../ports/carrier.port';

/** The durable "to dispatch" list: partition 'pending', sorted by when the message may next be tried. */
export const DISPATCH_QUEUE = 'message-dispatch';
export const DISPATCH_PARTITION = 'pending';

export interface PendingDispatch {
  readonly messageId: string;
  /** ISO time from which a dispatcher may try to claim it (creation, lease end or retryAt). */
  readonly availableAt: string;
}

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
 * Submits queued messages to their carrier, off the request path. Exactly-once submission across
 * processes: a dispatcher first appends MessageClaimed at the message stream's exact revision
 * (the decider refuses while another dispatcher's lease runs), and only the winner submits; then
 * it records MessageSent / MessageFailed / MessageSubmitDeferred. Work comes from hints (the
 * dispatch projection sees MessageQueued: prompt) and from polling the durable pending list
 * (restarts, deferrals, expired leases of crashed processes).
 */
@Injectable()
export class MessageDispatcher {
  readonly dispatcherId = `dsp_${hostname()
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 20)}_${process.pid}_${randomToken(6)}`;
  private readonly logger = new Logger('dispatcher');
  private running = false;
  private readonly queued = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private pollTimer: NodeJS.Timeout | null = null;
  private readonly retryTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CARRIER_ROUTES) private readonly carriers: CarrierRoutes,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(MESSAGING_OPTIONS) private readonly options: MessagingOptions,
    private readonly submissions: RecentSubmissions,
    private readonly metrics: MessageMetrics,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedulePoll(0);
  }

  /** Stops taking work and waits for submissions in flight, so a clean shutdown leaves no claim behind. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.queued.clear();
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** What is left to dispatch: the durable list (every process's) and what this one holds in memory. */
  async backlog(): Promise<DispatchBacklog> {
    return {
      pending: await this.reads.count(DISPATCH_QUEUE, DISPATCH_PARTITION),
      waiting: this.queued.size,
      submitting: this.inFlight.size,
    };
  }

  /** A message may be ready: try it now (or at `at`). */
  hint(messageId: string, at?: string): void {
    if (!this.running) return;
    const delay = at ? Date.parse(at) - this.clock.now().getTime() : 0;
    if (delay > 0) {
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer);
        this.hint(messageId);
      }, delay);
      timer.unref?.();
      this.retryTimers.add(timer);
      return;
    }
    this.queued.add(messageId);
    this.pump();
  }

  private pump(): void {
    for (const messageId of this.queued) {
      if (!this.running || this.inFlight.size >= this.options.dispatchConcurrency) return;
      this.queued.delete(messageId);
      if (this.inFlight.has(messageId)) continue;
      const run = this.dispatch(messageId)
        .catch((error) => this.logger.error(`dispatching ${messageId} failed`, (error as Error)?.stack))
        .finally(() => {
          this.inFlight.delete(messageId);
          this.pump();
        });
      this.inFlight.set(messageId, run);
    }
  }

  private schedulePoll(delayMs: number): void {
    if (!this.running) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      void this.poll().finally(() => this.schedulePoll(this.options.dispatchPollMs));
    }, delayMs);
    this.pollTimer.unref?.();
  }

  /** Hints every pending message whose time has come. */
  async poll(): Promise<void> {
    try {
      const now = this.clock.now().toISOString();
      const pending = await this.reads.list<PendingDispatch>(DISPATCH_QUEUE, {
        partition: DISPATCH_PARTITION,
        order: 'asc',
        limit: 500,
      });
      for (const p of pending) {
        if (p.availableAt > now) break;
        this.hint(p.messageId);
      }
    } catch (error) {
      this.logger.error('polling the dispatch queue failed', (error as Error)?.stack);
    }
  }

  /** Claim, submit, record. Returns quietly when another dispatcher has it or it is no longer QUEUED. */
  async dispatch(messageId: string): Promise<void> {
    const stream = messageStream(messageId);
    let claimed;
    try {
      claimed = await this.aggregates.handle(
        stream,
        messageDecider,
        (state) =>
          claim(state, {
            dispatcherId: this.dispatcherId,
            now: this.clock.now(),
            leaseMs: this.options.claimLeaseMs,
          }),
        { attempts: 3 },
      );
    } catch (error) {
      if (error instanceof ConcurrencyError) return; // others are busy on it; the pending list brings it back
      throw error;
    }
    if (!claimed.ok) return;
    const message = claimed.value.state as Message;
    const carrier = this.carriers.carrierFor(message.carrier, message.environment);
    let result: SubmitResult;
    if (!carrier) {
      result = {
        outcome: 'retry',
        afterMs: 30_000,
        reason: `no ${message.environment} connection to ${message.carrier}`,
      };
    } else {
      try {
        result = await carrier.submit(outboundOf(message));
      } catch (error) {
        result = {
          outcome: 'retry',
          afterMs: 5000,
          reason: `submit failed: ${(error as Error)?.message ?? 'unknown'}`,
        };
      }
    }
    const recording = this.aggregates.handle(stream, messageDecider, (state) =>
      recordSubmitResult(state, { dispatcherId: this.dispatcherId, result, now: this.clock.now() }),
    );
    if (result.outcome === 'accepted') {
      const recordedOk = recording.then((r) => r.ok);
      this.submissions.remember(message.carrier, result.carrierMessageIds, messageId, recordedOk);
    }
    const recorded = await recording;
    this.metrics.finished(finishedBy(recorded)); // a carrier's rejection: QUEUED → FAILED
    if (!recorded.ok) this.logger.warn(`submit result for ${messageId} not recorded: ${recorded.error.code}`);
  }
}

/**
 * The dispatcher's process manager: keeps the durable pending list from the message events and
 * wakes the worker as soon as a message is queued (or a deferral ends).
 */
export function dispatchProjection(dispatcher: MessageDispatcher): Projection {
  const put = (view: ProjectionView, messageId: string, availableAt: string) =>
    view.put(DISPATCH_QUEUE, messageId, { messageId, availableAt } satisfies PendingDispatch, {
      partition: DISPATCH_PARTITION,
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
        'MessageClaimed',
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
          dispatcher.hint(messageId);
          return;
        case 'MessageClaimed':
          if (await view.get(DISPATCH_QUEUE, messageId)) put(view, messageId, event.data.leaseUntil);
          return;
        case 'MessageSubmitDeferred':
          if (await view.get(DISPATCH_QUEUE, messageId)) put(view, messageId, event.data.retryAt);
          dispatcher.hint(messageId, event.data.retryAt);
          return;
        default:
          view.delete(DISPATCH_QUEUE, messageId);
      }
    },
  };
}
