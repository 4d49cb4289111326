import { createHash } from 'node:crypto';
import {
  toCheckoutObject,
  checkoutsProjection,
  CHECKOUTS,
  CheckoutView,
} from '../../billing/projections/checkouts.projection';
import { CHECKOUT_STREAM_PREFIX } from '../../billing/domain/checkout.events';
import { INBOUND_STREAM_PREFIX, InboundMessageReceived } from '../../compliance/domain/compliance.events';
import { toApiInbound } from '../../compliance/projections/compliance.projection';
import { messageDecider, isMessage } from '../../messaging/domain/message.decider';
import { isAcceptedEventType, type MessageEvent, walletNamedBy } from '../../messaging/domain/message.events';
import {
  MESSAGES,
  MessageDoc,
  messagesProjection,
  toApiMessage,
} from '../../messaging/projections/messages.projection';
import { fold } from '../../shared/decider';
import { isVerification, verificationDecider } from '../../verify/domain/verification.decider';
import { VERIFICATION_STREAM_PREFIX, type VerificationEvent } from '../../verify/domain/verification.events';
import { toApiVerification } from '../../verify/domain/verification-object';
import { LowBalanceAlerted, WALLET_CARE_STREAM_PREFIX } from '../../wallet/domain/wallet-care.events';
import { base62 } from '../../shared/ids';
import { Interner, RecentlyUsed } from '../../shared/recently-used';
import { ConcurrencyError, EventStore, RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { DocumentIndex } from '../../shared/read-store/read-store.port';
import {
  WEBHOOK_ENDPOINT_STREAM_PREFIX,
  WebhookEndpointEvent,
  WebhookEventObject,
  WebhookEventRecorded,
  WebhookEventType,
  webhookEventsStream,
} from '../domain/webhook.events';

export const WEBHOOK_EVENTS_PROCESS = 'webhook-events';
/** The process manager's own view of each wallet's enabled endpoints, as of its checkpoint. */
const PM_WALLETS = 'webhook-pm-wallets';
const PM_ENDPOINTS = 'webhook-pm-endpoints';

interface PmWallet {
  readonly endpoints: readonly { readonly id: string; readonly events: readonly WebhookEventType[] }[];
}

/** A verification's final facts that merchants hear of (a cancel is their own doing). */
const VERIFICATION_TYPES: Record<string, WebhookEventType> = {
  VerificationApproved: 'verification.approved',
  VerificationFailed: 'verification.failed',
  VerificationExpired: 'verification.expired',
};

const MESSAGE_TYPES: Record<string, WebhookEventType> = {
  MessageScheduled: 'message.scheduled',
  MessageCanceled: 'message.canceled',
  MessageSent: 'message.sent',
  MessageDelivered: 'message.delivered',
  MessageFailed: 'message.failed',
  MessageExpired: 'message.expired',
};

/**
 * Deterministic from the source event, so a replay after a crash names the same event. It
 * starts with the source's log position, so event ids sort in log order and the index of
 * recent events stays together in the read store instead of spreading over random pages.
 */
export function webhookEventId(source: RecordedEvent): string {
  const digest = createHash('sha256').update(`${source.streamId}@${source.revision}`).digest('hex');
  return `evt_${base62(source.position, 11)}${digest.slice(0, 16)}`;
}

/**
 * Turns message state changes and paid checkouts into the wallet's webhook events, recorded in
 * `webhook-events-<walletId>` with the endpoints subscribed at that point of the log, for the
 * wallets that have endpoints (GET /v1/events answers from what was recorded: a wallet's events
 * since it has had an endpoint). Recording is idempotent: each recorded event keeps its source
 * position, and a source at or below the stream's last one was recorded already (this process
 * handles the log in order).
 */
export function webhookEventsProcess(events: EventStore, publicUrl: string): Projection {
  const checkouts = checkoutsProjection(publicUrl);
  const histories = new SourceHistories(events, 5_000);
  const log = new WebhookEventLog(events, 10_000);
  // Messages' events name their wallet, but for those recorded before they did.
  const wallets = new StreamWallets(events, 10_000, isAcceptedEventType, (recorded) =>
    walletNamedBy(recorded.data),
  );
  const verificationWallets = new StreamWallets(events, 20_000, (type) => type === 'VerificationStarted');
  /** Whether a wallet has enabled endpoints, as this process last applied it (PM_WALLETS). */
  const withEndpoints = new RecentlyUsed<string, boolean>(100_000);
  const hasEndpoints = async (walletId: string, view: ProjectionView) => {
    const known = withEndpoints.get(walletId);
    if (known !== undefined) return known;
    const has = ((await view.get<PmWallet>(PM_WALLETS, walletId))?.endpoints.length ?? 0) > 0;
    withEndpoints.set(walletId, has);
    return has;
  };
  return {
    name: WEBHOOK_EVENTS_PROCESS,
    kind: 'process-manager',
    collections: [PM_WALLETS, PM_ENDPOINTS],
    filter: {
      streamPrefixes: [
        'message-',
        CHECKOUT_STREAM_PREFIX,
        INBOUND_STREAM_PREFIX,
        WALLET_CARE_STREAM_PREFIX,
        VERIFICATION_STREAM_PREFIX,
        WEBHOOK_ENDPOINT_STREAM_PREFIX,
      ],
      eventTypes: [
        'MessageQueued',
        ...Object.keys(MESSAGE_TYPES),
        'CheckoutSucceeded',
        'InboundMessageReceived',
        'LowBalanceAlerted',
        'VerificationStarted',
        ...Object.keys(VERIFICATION_TYPES),
        'WebhookEndpointCreated',
        'WebhookEndpointDeleted',
        'WebhookEndpointDisabled',
      ],
    },
    onResume() {
      withEndpoints.clear(); // another process may have applied endpoint changes meanwhile
    },
    async apply(recorded: RecordedEvent, view: ProjectionView) {
      if (recorded.streamId.startsWith(WEBHOOK_ENDPOINT_STREAM_PREFIX)) {
        const walletId = await trackEndpoint(recorded, view);
        if (walletId) withEndpoints.delete(walletId);
        return;
      }
      if (recorded.streamId.startsWith('message-')) {
        // Most wallets have no endpoint: their messages cost a look-up in memory and nothing more.
        const walletId = await wallets.of(recorded);
        if (!walletId || !(await hasEndpoints(walletId, view))) return;
      }
      if (recorded.streamId.startsWith(VERIFICATION_STREAM_PREFIX)) {
        // The same for verifications: their start names the wallet, their end is an event.
        const walletId = await verificationWallets.of(recorded);
        if (recorded.type === 'VerificationStarted' || !walletId || !(await hasEndpoints(walletId, view)))
          return;
      }
      if (recorded.streamId.startsWith(INBOUND_STREAM_PREFIX) || recorded.type === 'LowBalanceAlerted') {
        // An inbound message, a low balance: one fact each, no history to fold.
        const built =
          recorded.type === 'LowBalanceAlerted' ? balanceLowEvent(recorded) : inboundEvent(recorded);
        if (built && (await hasEndpoints(built.walletId, view))) record(built);
        return;
      }
      const history = await histories.upTo(recorded);
      if (recorded.streamId.startsWith('message-') && !MESSAGE_TYPES[recorded.type]) return;
      if (history.length === 0 || history[history.length - 1].revision !== recorded.revision) return;
      const built = recorded.streamId.startsWith(CHECKOUT_STREAM_PREFIX)
        ? await checkoutEvent(history, recorded)
        : recorded.streamId.startsWith(VERIFICATION_STREAM_PREFIX)
          ? verificationEvent(history, recorded)
          : await messageEvent(history, recorded);
      if (!built || !(await hasEndpoints(built.walletId, view))) return;
      await record(built);

      async function record(event: BuiltEvent): Promise<void> {
        const wallet = await view.get<PmWallet>(PM_WALLETS, event.walletId);
        const endpoints = (wallet?.endpoints ?? [])
          .filter((e) => e.events.includes(event.event.type))
          .map((e) => e.id);
        recordAfterBatch(log, view, event.walletId, {
          type: 'WebhookEventRecorded',
          data: {
            event: event.event,
            subject: event.subject,
            source: {
              streamId: recorded.streamId,
              revision: recorded.revision.toString(),
              position: recorded.position.toString(),
            },
            endpoints,
          },
        });
      }
    },
  };

  async function checkoutEvent(history: readonly RecordedEvent[], recorded: RecordedEvent) {
    if (recorded.type !== 'CheckoutSucceeded') return null;
    const view = new MemoryView();
    for (const event of history) await checkouts.apply(event, view);
    const doc = [...view.docs(CHECKOUTS)][0] as CheckoutView | undefined;
    if (!doc || doc.status !== 'succeeded') return null;
    const at = new Date((recorded.data as { succeededAt: string }).succeededAt);
    return {
      walletId: doc.walletId,
      subject: doc.id,
      // A checkout's states: pending (1), then its outcome (2).
      event: eventObject(recorded, 'checkout.succeeded', 2, toCheckoutObject(doc, at)),
    };
  }
}

interface BuiltEvent {
  readonly walletId: string;
  readonly subject: string;
  readonly event: WebhookEventObject;
}

/** `message.received`: an inbound message to a number assigned to the wallet's account. */
function inboundEvent(recorded: RecordedEvent): BuiltEvent | null {
  const data = (recorded as unknown as InboundMessageReceived).data;
  if (!data.walletId) return null; // an unassigned number's message is the operator's
  return {
    walletId: data.walletId,
    subject: data.inboundId,
    event: eventObject(recorded, 'message.received', 1, toApiInbound(data)),
  };
}

/** `wallet.balance_low`: sms_left fell to or below the wallet's alert (once per crossing). */
function balanceLowEvent(recorded: RecordedEvent): BuiltEvent {
  const data = (recorded as unknown as LowBalanceAlerted).data;
  return {
    walletId: data.walletId,
    subject: data.walletId,
    event: eventObject(recorded, 'wallet.balance_low', 1, {
      sms_left: data.smsLeft,
      threshold: data.threshold,
    }),
  };
}

/**
 * `verification.approved`, `.failed`, `.expired`: the verification object as it read when the
 * fact was recorded (never a code: the object has none). A verification's states: pending (1),
 * then its end (2).
 */
function verificationEvent(history: readonly RecordedEvent[], recorded: RecordedEvent): BuiltEvent | null {
  const type = VERIFICATION_TYPES[recorded.type];
  const state = fold(verificationDecider, history as unknown as VerificationEvent[]);
  if (!type || !isVerification(state)) return null;
  return {
    walletId: state.walletId,
    subject: state.verificationId,
    event: eventObject(recorded, type, 2, toApiVerification(state, recorded.recordedAt)),
  };
}

async function messageEvent(history: readonly RecordedEvent[], recorded: RecordedEvent) {
  const type = MESSAGE_TYPES[recorded.type];
  if (!type) return null;
  const domain = history as unknown as MessageEvent[];
  const before = fold(messageDecider, domain.slice(0, -1));
  const after = messageDecider.evolve(before, domain[domain.length - 1]);
  // Only a real state change is an event (a message's first state only when it is SCHEDULED:
  // QUEUED has no webhook event); sandbox messages have no wallet.
  if (!isMessage(after) || !after.walletId) return null;
  const changed = isMessage(before)
    ? after.sequence !== before.sequence
    : recorded.type === 'MessageScheduled';
  if (!changed) return null;
  const view = new MemoryView();
  for (const event of history) await messagesProjection.apply(event, view);
  const doc = await view.get<MessageDoc>(MESSAGES, after.messageId);
  if (!doc) return null;
  return {
    walletId: after.walletId,
    subject: after.messageId,
    event: eventObject(recorded, type, after.sequence, toApiMessage(doc)),
  };
}

function eventObject(
  recorded: RecordedEvent,
  type: WebhookEventType,
  sequence: number,
  data: object,
): WebhookEventObject {
  return {
    id: webhookEventId(recorded),
    object: 'event',
    type,
    created_at: recorded.recordedAt.toISOString(),
    sequence,
    data: data as Record<string, unknown>,
  };
}

/** Applies an endpoint's change to its wallet's list; answers the wallet it changed, if any. */
async function trackEndpoint(recorded: RecordedEvent, view: ProjectionView): Promise<string | null> {
  const event = recorded as unknown as RecordedEvent & WebhookEndpointEvent;
  const endpointId = recorded.streamId.slice(WEBHOOK_ENDPOINT_STREAM_PREFIX.length);
  let walletId: string;
  if (event.type === 'WebhookEndpointCreated') {
    walletId = event.data.walletId;
    view.put(PM_ENDPOINTS, endpointId, { walletId });
  } else {
    const known = await view.get<{ walletId: string }>(PM_ENDPOINTS, endpointId);
    if (!known) return null;
    walletId = known.walletId;
  }
  const wallet = (await view.get<PmWallet>(PM_WALLETS, walletId)) ?? { endpoints: [] };
  const others = wallet.endpoints.filter((e) => e.id !== endpointId);
  const endpoints =
    event.type === 'WebhookEndpointCreated'
      ? [...others, { id: endpointId, events: event.data.events }]
      : others;
  view.put(PM_WALLETS, walletId, { endpoints } satisfies PmWallet);
  return walletId;
}

/**
 * Each stream's wallet: named by the event itself where it can be (a message's first event and
 * its settling ones, NamesWallet), else noted from the stream's first event as it goes by (a
 * verification's VerificationStarted), or read from that first event for a stream this process
 * has not seen (after a restart, pushed out by newer ones, or a message event recorded before
 * events named their wallet).
 */
class StreamWallets {
  private readonly known: RecentlyUsed<string, string | null>;
  /** One copy of each wallet id for `known`, which keeps one for each stream it notes. */
  private readonly walletIds = new Interner(10_000);

  constructor(
    private readonly events: EventStore,
    capacity: number,
    private readonly isFirst: (type: string) => boolean,
    private readonly named: (recorded: RecordedEvent) => string | undefined = () => undefined,
  ) {
    this.known = new RecentlyUsed(capacity);
  }

  async of(recorded: RecordedEvent): Promise<string | null> {
    const named = this.named(recorded);
    // Used at once, not kept: nothing to intern.
    if (named !== undefined) return named || null;
    if (this.isFirst(recorded.type)) return this.note(recorded.streamId, recorded);
    if (this.known.has(recorded.streamId)) return this.known.peek(recorded.streamId) ?? null;
    const [first] = await this.events.readStream(recorded.streamId, { limit: 1 });
    return this.note(recorded.streamId, first && this.isFirst(first.type) ? first : undefined);
  }

  private note(streamId: string, first: RecordedEvent | undefined): string | null {
    const walletId = (first?.data as { walletId?: string } | undefined)?.walletId;
    const held = walletId ? this.walletIds.of(walletId) : null;
    this.known.set(streamId, held);
    return held;
  }
}

/** Each batch's webhook events by wallet, in log order, until the batch records them. */
const batches = new WeakMap<ProjectionView, Map<string, WebhookEventRecorded[]>>();

/**
 * Queues the event for the end of the batch, when each wallet's events of the whole batch are
 * recorded in one append: one stream write per wallet, all wallets in one group commit.
 */
function recordAfterBatch(
  log: WebhookEventLog,
  view: ProjectionView,
  walletId: string,
  event: WebhookEventRecorded,
): void {
  let byWallet = batches.get(view);
  if (!byWallet) batches.set(view, (byWallet = new Map()));
  const queued = byWallet.get(walletId);
  if (queued) return void queued.push(event);
  const list = [event];
  byWallet.set(walletId, list);
  view.afterBatch(() => log.record(walletId, list));
}

interface Tail {
  /** -1n while the stream does not exist. */
  readonly revision: bigint;
  /** The source position of its newest event; -1n when none. */
  readonly source: bigint;
}

const sourceOf = (event: WebhookEventRecorded) => BigInt(event.data.source.position);

/**
 * Writes the wallets' webhook event streams, idempotently: an event whose source is at or below
 * the stream's newest source was recorded already. Each stream's tail is remembered from the
 * last write, so a write needs no read; if another process wrote meanwhile, the append at the
 * remembered revision fails and the tail is read again.
 */
class WebhookEventLog {
  private readonly tails: RecentlyUsed<string, Tail>;

  constructor(
    private readonly events: EventStore,
    capacity: number,
  ) {
    this.tails = new RecentlyUsed(capacity);
  }

  async record(walletId: string, batch: readonly WebhookEventRecorded[]): Promise<void> {
    const stream = webhookEventsStream(walletId);
    for (let attempt = 1; ; attempt++) {
      const tail = this.tails.get(stream) ?? (await this.readTail(stream));
      const fresh = batch.filter((event) => sourceOf(event) > tail.source);
      if (fresh.length === 0) return;
      try {
        const appended = await this.events.append(
          stream,
          fresh,
          tail.revision < 0n ? 'no_stream' : tail.revision,
        );
        this.tails.set(stream, {
          revision: appended.nextExpectedRevision,
          source: sourceOf(fresh[fresh.length - 1]),
        });
        return;
      } catch (error) {
        this.tails.delete(stream);
        if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
      }
    }
  }

  private async readTail(stream: string): Promise<Tail> {
    const [last] = await this.events.readStream(stream, { direction: 'backwards', limit: 1 });
    if (!last) return { revision: -1n, source: -1n };
    return { revision: last.revision, source: sourceOf(last as unknown as WebhookEventRecorded) };
  }
}

/**
 * The source streams' events up to the one being handled. A message's events all arrive here
 * in order, so its history is built as they go by; the stream is read only for what this
 * process has not seen (after a restart, or a history pushed out by newer ones). Events never
 * change, so nothing goes stale.
 */
class SourceHistories {
  private readonly streams: RecentlyUsed<string, readonly RecordedEvent[]>;

  constructor(
    private readonly events: EventStore,
    capacity: number,
  ) {
    this.streams = new RecentlyUsed(capacity);
  }

  async upTo(recorded: RecordedEvent): Promise<readonly RecordedEvent[]> {
    const wanted = Number(recorded.revision) + 1;
    let history = this.streams.get(recorded.streamId) ?? [];
    if (history.length === wanted - 1) {
      history = [...history, recorded];
    } else if (history.length < wanted) {
      const missing = await this.events.readStream(recorded.streamId, {
        fromRevision: BigInt(history.length),
        limit: wanted - history.length,
      });
      history = [...history, ...missing];
    }
    this.streams.set(recorded.streamId, history);
    return history.slice(0, wanted);
  }
}

/** A throwaway view to fold one stream through a read model's own `apply`. */
class MemoryView implements ProjectionView {
  private readonly store = new Map<string, Map<string, unknown>>();
  async get<T>(collection: string, id: string): Promise<T | null> {
    return (this.store.get(collection)?.get(id) as T) ?? null;
  }
  put(collection: string, id: string, doc: unknown, _index?: DocumentIndex): void {
    if (!this.store.has(collection)) this.store.set(collection, new Map());
    this.store.get(collection)!.set(id, doc);
  }
  delete(collection: string, id: string): void {
    this.store.get(collection)?.delete(id);
  }
  afterBatch(): void {
    throw new Error('a read model folded for its document has no side effects');
  }
  docs(collection: string): Iterable<unknown> {
    return this.store.get(collection)?.values() ?? [];
  }
}
