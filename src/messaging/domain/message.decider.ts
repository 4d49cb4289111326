import { stateAfterAny, type Decider } from '../../shared/decider';
import { DomainError, notFound } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { CarrierReceipt, FinalStatus, SubmitResult } from '../ports/carrier.port';
import type {
  DeliveryReportedData,
  MessageClaimedData,
  MessageEvent,
  MessageOutcomeData,
  MessageQueuedData,
} from './message.events';
import { acceptedEvent } from './message.events';

export type MessageStatus = 'SCHEDULED' | 'QUEUED' | 'SENT' | FinalStatus | 'CANCELED';

/** A message that was accepted (queued or scheduled): the accepted facts plus what happened since. */
export type Message = MessageQueuedData & {
  readonly status: MessageStatus;
  /** When a scheduled message is due (MessageScheduled); null for one queued at once. */
  readonly sendAt: string | null;
  /** Time of the latest status change; never moves backwards. */
  readonly updatedAt: string;
  /** Counts the states the message went through: 1 when QUEUED or SCHEDULED (webhooks' `sequence`). */
  readonly sequence: number;
  /** The dispatcher holding it while QUEUED; cleared by a deferral, SENT or a terminal state. */
  readonly claim: MessageClaimedData | null;
  /** After a deferral: no claim before this time. */
  readonly retryAt: string | null;
  readonly deferrals: number;
  readonly sentAt: string | null;
  readonly carrierMessageIds: readonly string[];
  /** One receipt per part, in the order they arrived. */
  readonly reports: readonly DeliveryReportedData[];
  /** The terminal fact, once there is one. */
  readonly outcome: (MessageOutcomeData & { readonly status: FinalStatus }) | null;
};

export type MessageState =
  | { readonly status: 'NONE' }
  | { readonly status: 'REJECTED'; readonly reason: string; readonly at: string }
  | Message;

export const initialState = (): MessageState => ({ status: 'NONE' });

/** A status nothing follows (the API's final statuses, CANCELED, and a never-accepted REJECTED). */
export const isTerminal = (status: string): status is FinalStatus | 'CANCELED' | 'REJECTED' =>
  status === 'DELIVERED' ||
  status === 'FAILED' ||
  status === 'EXPIRED' ||
  status === 'CANCELED' ||
  status === 'REJECTED';

export const isMessage = (state: MessageState): state is Message =>
  state.status !== 'NONE' && state.status !== 'REJECTED';

const later = (a: string, b: string) => (Date.parse(b) > Date.parse(a) ? b : a);

function settle(m: Message, status: FinalStatus, data: MessageOutcomeData): Message {
  const { report, ...outcome } = data;
  return {
    ...m,
    status,
    reports: report ? [...m.reports, report] : m.reports,
    outcome: { status, ...outcome },
    claim: null,
    updatedAt: later(m.updatedAt, data.at),
    sequence: m.sequence + 1,
  };
}

/**
 * The state's own fields come first and the event's after them (none has the same name): an
 * object spread and then given new properties is rebuilt as a slow dictionary by V8, which cost
 * 12 µs and 3 KB a message here against 0.7 µs and 0.4 KB this way round.
 */
function accepted(data: MessageQueuedData, status: 'QUEUED' | 'SCHEDULED', sendAt: string | null): Message {
  return {
    status,
    sendAt,
    updatedAt: data.createdAt,
    sequence: 1,
    claim: null,
    retryAt: null,
    deferrals: 0,
    sentAt: null,
    carrierMessageIds: [],
    reports: [],
    outcome: null,
    ...data,
  };
}

/** A SCHEDULED message's next state: due (QUEUED) or CANCELED, whichever was recorded first. */
const leaveSchedule = (m: Message, status: 'QUEUED' | 'CANCELED', at: string): Message => ({
  ...m,
  status,
  updatedAt: later(m.updatedAt, at),
  sequence: m.sequence + 1,
});

/** Folds one fact in. Never refuses; a terminal state absorbs everything after it. */
export function evolve(state: MessageState, event: MessageEvent): MessageState {
  if (state.status === 'NONE') {
    if (event.type === 'MessageQueued') return accepted(event.data, 'QUEUED', null);
    if (event.type === 'MessageScheduled') {
      const { sendAt, ...data } = event.data;
      return accepted(data, 'SCHEDULED', sendAt);
    }
    if (event.type === 'MessageRejected') return { status: 'REJECTED', ...event.data };
    return state;
  }
  if (!isMessage(state) || isTerminal(state.status)) return state;
  const m = state;
  switch (event.type) {
    case 'MessageDue':
      return m.status === 'SCHEDULED' ? leaveSchedule(m, 'QUEUED', event.data.at) : m;
    case 'MessageCanceled':
      return m.status === 'SCHEDULED' ? leaveSchedule(m, 'CANCELED', event.data.at) : m;
    case 'MessageClaimed':
      return { ...m, claim: event.data };
    case 'MessageSubmitDeferred':
      return { ...m, claim: null, retryAt: event.data.retryAt, deferrals: m.deferrals + 1 };
    case 'MessageSent':
      return {
        ...m,
        status: 'SENT',
        claim: null,
        retryAt: null,
        sentAt: event.data.sentAt,
        carrierMessageIds: event.data.carrierMessageIds,
        updatedAt: later(m.updatedAt, event.data.sentAt),
        sequence: m.sequence + 1,
      };
    case 'DeliveryReported':
      return { ...m, reports: [...m.reports, event.data] };
    case 'MessageDelivered':
      return settle(m, 'DELIVERED', event.data);
    case 'MessageFailed':
      return settle(m, 'FAILED', event.data);
    case 'MessageExpired':
      return settle(m, 'EXPIRED', event.data);
    default:
      return m;
  }
}

export const messageDecider: Decider<MessageState, MessageEvent> = {
  initialState,
  evolve,
  isFinal: (state) => isTerminal(state.status),
};

type Decision = Result<MessageEvent[], DomainError>;

const conflict = (code: string, message: string) => new DomainError('conflict', code, message);
const plus = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * Starts the stream: queued at once, or scheduled for `sendAt`. Idempotent: an already accepted
 * message records nothing again.
 */
export function queue(state: MessageState, cmd: MessageQueuedData, sendAt: string | null = null): Decision {
  if (state.status === 'NONE') return ok([acceptedEvent(cmd, sendAt)]);
  if (state.status === 'REJECTED')
    return err(conflict('message_rejected', 'The message was rejected and cannot be queued'));
  return ok([]);
}

/**
 * A scheduled message whose time has come becomes QUEUED (MessageDue), recorded before any
 * submission: against a cancel at the same instant, the append at the stream's revision decides
 * which one happened, and the other finds the message no longer SCHEDULED. A message not
 * SCHEDULED (queued at once, already due, canceled, ended) records nothing.
 */
export function queueDue(state: MessageState, cmd: { now: Date }): Decision {
  if (!isMessage(state)) return err(notFound('message'));
  if (state.status !== 'SCHEDULED' || state.sendAt === null) return ok([]);
  if (cmd.now.getTime() < Date.parse(state.sendAt))
    return err(conflict('message_not_due', `The message is scheduled for ${state.sendAt}`));
  return ok([{ type: 'MessageDue', data: { at: cmd.now.toISOString() } }]);
}

/**
 * The merchant's cancel: only a SCHEDULED message of the caller's wallet and environment (any
 * other is answered as unknown), and only once; the settlement process releases its credits.
 */
export function cancel(
  state: MessageState,
  cmd: { walletId: string; environment: Message['environment']; now: Date },
): Decision {
  const theirs = isMessage(state) && state.walletId === cmd.walletId && state.environment === cmd.environment;
  if (!theirs || cmd.walletId === '') return err(notFound('message', 'id'));
  if (state.status !== 'SCHEDULED') {
    return err(
      conflict(
        'message_not_cancelable',
        `The message is ${state.status}; only a SCHEDULED message can be canceled`,
      ),
    );
  }
  return ok([{ type: 'MessageCanceled', data: { at: cmd.now.toISOString(), walletId: state.walletId } }]);
}

/** Records that a message was never accepted; only on an empty stream, and then nothing follows. */
export function reject(state: MessageState, cmd: { reason: string; now: Date }): Decision {
  if (state.status === 'NONE')
    return ok([{ type: 'MessageRejected', data: { reason: cmd.reason, at: cmd.now.toISOString() } }]);
  if (state.status === 'REJECTED') return ok([]);
  return err(conflict('message_exists', 'The message was already queued'));
}

/**
 * Whether a dispatcher may submit the message now: QUEUED, within its validity, past any
 * deferral, and not claimed by another dispatcher whose claim still runs (claims were recorded
 * per message before dispatch leases; see dispatch-leases.decider). Nothing is recorded: the
 * lease on the message's partition is what keeps two processes from submitting it.
 */
export function readyToSubmit(
  state: MessageState,
  cmd: { dispatcherId: string; now: Date },
): Result<Message, DomainError> {
  if (!isMessage(state)) return err(notFound('message'));
  if (state.status !== 'QUEUED')
    return err(conflict('message_not_queued', `The message is already ${state.status}`));
  const now = cmd.now.getTime();
  if (now >= Date.parse(state.validUntil))
    return err(conflict('message_validity_ended', 'The message is past its validity'));
  if (state.retryAt && now < Date.parse(state.retryAt)) {
    return err(conflict('submit_deferred', `The carrier asked to retry at ${state.retryAt}`));
  }
  const held = state.claim;
  if (held && held.dispatcherId !== cmd.dispatcherId && now < Date.parse(held.leaseUntil)) {
    return err(conflict('message_claimed', `Claimed by ${held.dispatcherId} until ${held.leaseUntil}`));
  }
  return ok(state);
}

/**
 * What the carrier said to a submission. An acceptance is recorded whoever submitted (the SMS
 * left; that is a fact). A rejection or a deferral of a message claimed per message (before
 * dispatch leases) counts only from the dispatcher holding that claim, else a stale dispatcher
 * could release a claim another is submitting under. Once SENT or terminal, nothing more is
 * recorded.
 */
export function recordSubmitResult(
  state: MessageState,
  cmd: { dispatcherId: string; result: SubmitResult; now: Date },
): Decision {
  if (!isMessage(state)) return err(notFound('message'));
  if (state.status !== 'QUEUED') return ok([]);
  const { result, now } = cmd;
  if (result.outcome === 'accepted') {
    return ok([
      {
        type: 'MessageSent',
        data: {
          carrierMessageIds: [...result.carrierMessageIds],
          sentAt: now.toISOString(),
          walletId: state.walletId,
        },
      },
    ]);
  }
  if (state.claim && state.claim.dispatcherId !== cmd.dispatcherId) {
    return err(conflict('claim_lost', `${cmd.dispatcherId} does not hold the claim on this message`));
  }
  if (result.outcome === 'rejected') {
    const data = {
      errorCode: result.errorCode,
      errorMessage: result.errorMessage,
      carrierStatus: null,
      at: now.toISOString(),
      walletId: state.walletId,
    };
    return ok([{ type: 'MessageFailed', data }]);
  }
  return ok([
    { type: 'MessageSubmitDeferred', data: { reason: result.reason, retryAt: plus(now, result.afterMs) } },
  ]);
}

export type ReceiptInput = Pick<
  CarrierReceipt,
  | 'carrier'
  | 'environment'
  | 'carrierMessageIdCandidates'
  | 'status'
  | 'carrierStatus'
  | 'errorCode'
  | 'errorMessage'
  | 'reportedAt'
>;

/** The outcome the last part's receipt decides, carrying that receipt. */
function outcomeOf(
  m: Message,
  reports: readonly DeliveryReportedData[],
  last: DeliveryReportedData,
): MessageEvent {
  const byPart = m.carrierMessageIds.map((id) => reports.find((r) => r.carrierMessageId === id));
  const failed = byPart.find((r) => r?.status === 'FAILED');
  const expired = byPart.find((r) => r?.status === 'EXPIRED');
  const deciding = failed ?? expired ?? last;
  const data: MessageOutcomeData = {
    errorCode: deciding.errorCode,
    errorMessage: deciding.errorMessage,
    carrierStatus: deciding.carrierStatus,
    at: last.reportedAt,
    report: last,
    walletId: m.walletId,
  };
  if (failed) return { type: 'MessageFailed', data };
  if (expired) return { type: 'MessageExpired', data };
  return { type: 'MessageDelivered', data: { ...data, errorCode: null, errorMessage: null } };
}

/**
 * One part's receipt. A receipt is never refused, only ignored: when the message is not SENT
 * (not yet: the carrier ids that identify its parts come with MessageSent, so a receipt racing
 * ahead of it cannot be matched and the carrier or simulator must redeliver; or no longer: a
 * terminal state never changes), when no candidate id is one of its parts, or when that part
 * already has a receipt. A part's receipt is DeliveryReported, except the one completing the
 * parts: it is recorded inside the terminal fact it decides, FAILED if any part failed (with that
 * part's error), else EXPIRED if any expired, else DELIVERED. A one-part message records one event.
 */
export function recordReceipt(state: MessageState, receipt: ReceiptInput): Decision {
  if (!isMessage(state) || state.status !== 'SENT') return ok([]);
  // Only the connection the message went out on reports on it (issue 28: another route's SMSC,
  // or a LIVE link naming a TEST message's derived carrier id, changes nothing).
  if (receipt.carrier !== state.carrier || receipt.environment !== state.environment) return ok([]);
  const id = receipt.carrierMessageIdCandidates.find((c) => state.carrierMessageIds.includes(c));
  if (id === undefined || state.reports.some((r) => r.carrierMessageId === id)) return ok([]);
  const report: DeliveryReportedData = {
    carrierMessageId: id,
    status: receipt.status,
    carrierStatus: receipt.carrierStatus,
    errorCode: receipt.errorCode,
    errorMessage: receipt.errorMessage,
    reportedAt: receipt.reportedAt.toISOString(),
  };
  const reports = [...state.reports, report];
  const allKnown = state.carrierMessageIds.every((part) => reports.some((r) => r.carrierMessageId === part));
  return ok([allKnown ? outcomeOf(state, reports, report) : { type: 'DeliveryReported', data: report }]);
}

/**
 * Ends a message with no final outcome once its validity is over. A QUEUED one waits `inFlightMs`
 * longer (records nothing): a dispatcher may have started its submission just before the end,
 * and a submission never outlasts the dispatcher's lease. A terminal message is left alone.
 */
export function expire(state: MessageState, now: Date, inFlightMs = 0): Decision {
  if (!isMessage(state) || isTerminal(state.status)) return ok([]);
  const t = now.getTime();
  if (t < Date.parse(state.validUntil)) return ok([]);
  // A scheduled message not made due in time (no dispatcher ran) ends like a queued one.
  const unsent = state.status === 'QUEUED' || state.status === 'SCHEDULED';
  if (unsent && t < Date.parse(state.validUntil) + inFlightMs) return ok([]);
  if (state.status === 'QUEUED' && state.claim && t < Date.parse(state.claim.leaseUntil)) return ok([]);
  const errorMessage = unsent
    ? 'Not sent within the validity period'
    : 'No delivery report within the validity period';
  return ok([
    {
      type: 'MessageExpired',
      data: {
        errorCode: null,
        errorMessage,
        carrierStatus: null,
        at: now.toISOString(),
        walletId: state.walletId,
      },
    },
  ]);
}

const FINAL_EVENTS: ReadonlySet<MessageEvent['type']> = new Set([
  'MessageDelivered',
  'MessageFailed',
  'MessageExpired',
]);

/** The message a recorded decision finished (see stateAfterAny), else null. */
export function finishedBy(
  recorded: Result<{ readonly state: MessageState; readonly events: readonly MessageEvent[] }, unknown>,
): Message | null {
  const state = stateAfterAny(recorded, FINAL_EVENTS);
  return state && isMessage(state) ? state : null;
}
