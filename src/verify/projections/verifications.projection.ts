import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import type { ReadStore } from '../../shared/read-store/read-store.port';
import { capturesIn, releasesIn, SETTLEMENT_EVENT_TYPES } from '../../wallet/domain/settlements';
import type { WalletEvent } from '../../wallet/domain/wallet.events';
import type { VerificationStatus } from '../domain/verification.decider';
import {
  GuardLimit,
  VERIFICATION_GUARD_STREAM_PREFIX,
  VerificationRefused,
} from '../domain/verification-guard.decider';
import {
  Environment,
  VERIFICATION_EVENT_TYPES,
  VERIFICATION_STREAM_PREFIX,
  VerificationEvent,
} from '../domain/verification.events';

export const VERIFICATIONS_PROJECTION = 'verifications';
/** Verifications by id, listed per wallet newest first (partition = walletId). */
export const VERIFICATIONS = 'verifications';
/** One document per wallet and UTC day (Ghana time): the console's conversion and spend. */
export const VERIFICATION_DAYS = 'verification-days';
/** The fraud guard's refusals, listed per wallet newest first. */
export const VERIFICATION_REFUSALS = 'verification-refusals';
/** Pending verifications by expiry (partition 'open'): the expiry process's work list. */
export const VERIFICATION_OPEN = 'verification-open';
export const OPEN_PARTITION = 'open';
/** Verification SMS not settled yet (partition 'open'): which wallet captures are a verification's spend. */
const VERIFICATION_SMS = 'verification-sms';

export interface VerificationDoc {
  readonly id: string;
  readonly walletId: string;
  readonly environment: Environment;
  readonly to: string;
  /** As recorded: a pending one past `expiresAt` reads expired (statusAt). */
  readonly status: VerificationStatus;
  readonly checks: number;
  readonly maxChecks: number;
  readonly sends: number;
  readonly messageIds: readonly string[];
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly approvedAt: string | null;
  /** The UTC day it started, which its outcome and spend count towards. */
  readonly day: string;
  /** Credits its SMS cost: captured once DELIVERED (a failed or expired SMS costs nothing). */
  readonly credits: number;
  readonly sort: string;
  readonly revision: string;
}

export interface VerificationDayDoc {
  readonly walletId: string;
  readonly day: string;
  readonly started: number;
  readonly approved: number;
  readonly failed: number;
  readonly expired: number;
  readonly canceled: number;
  /** Refused by the fraud guard that day (never started). */
  readonly refused: number;
  readonly credits: number;
}

export interface VerificationRefusalDoc {
  readonly to: string;
  readonly limit: GuardLimit;
  readonly retryAfterSeconds: number;
  readonly at: string;
}

interface SmsDoc {
  readonly verificationId: string;
  readonly walletId: string;
  readonly day: string;
}

const dayOf = (iso: string) => iso.slice(0, 10);
const position20 = (position: bigint) => position.toString().padStart(20, '0');
const emptyDay = (walletId: string, day: string): VerificationDayDoc => ({
  walletId,
  day,
  started: 0,
  approved: 0,
  failed: 0,
  expired: 0,
  canceled: 0,
  refused: 0,
  credits: 0,
});

type DayCount = Exclude<keyof VerificationDayDoc, 'walletId' | 'day'>;

async function addToDay(view: ProjectionView, walletId: string, day: string, field: DayCount, by = 1) {
  const id = `${walletId}|${day}`;
  const doc = (await view.get<VerificationDayDoc>(VERIFICATION_DAYS, id)) ?? emptyDay(walletId, day);
  view.put(VERIFICATION_DAYS, id, { ...doc, [field]: doc[field] + by }, { partition: walletId, sort: day });
}

const listing = (doc: VerificationDoc) => ({ partition: doc.walletId, sort: doc.sort });
const openEntry = (view: ProjectionView, doc: VerificationDoc) =>
  view.put(
    VERIFICATION_OPEN,
    doc.id,
    { verificationId: doc.id, expiresAt: doc.expiresAt },
    { partition: OPEN_PARTITION, sort: `${doc.expiresAt}|${doc.id}` },
  );

const ENDINGS: Partial<Record<VerificationEvent['type'], Exclude<VerificationStatus, 'pending'>>> = {
  VerificationApproved: 'approved',
  VerificationFailed: 'failed',
  VerificationExpired: 'expired',
  VerificationCanceled: 'canceled',
};

/**
 * The verifications read model (both read stores; rebuilt by projections:rebuild like any):
 * the list, the console's days, the guard's refusals, and the expiry process's work list. Credits
 * spent are the wallet's captures of verification SMS: a capture names only its message, so the
 * projection keeps the unsettled verification SMS (a document each, and their ids in memory,
 * read again from the documents whenever it resumes) to tell them from every other message's.
 */
export function verificationsProjection(reads: ReadStore): Projection {
  let unsettled: Set<string> | null = null;

  async function loadUnsettled(): Promise<Set<string>> {
    const ids = new Set<string>();
    let afterSort: string | undefined;
    for (;;) {
      const page = await reads.list<SmsDoc & { messageId: string }>(VERIFICATION_SMS, {
        partition: OPEN_PARTITION,
        order: 'asc',
        limit: 1000,
        afterSort,
      });
      for (const doc of page) ids.add(doc.messageId);
      if (page.length < 1000) return ids;
      afterSort = page[page.length - 1].messageId;
    }
  }

  const track = (view: ProjectionView, set: Set<string>, messageId: string, doc: SmsDoc) => {
    set.add(messageId);
    view.put(
      VERIFICATION_SMS,
      messageId,
      { ...doc, messageId },
      { partition: OPEN_PARTITION, sort: messageId },
    );
  };
  const untrack = (view: ProjectionView, set: Set<string>, messageId: string) => {
    set.delete(messageId);
    view.delete(VERIFICATION_SMS, messageId);
  };

  /** A verification's SMS settled: what it spent (0 when its credits went back) counts for it. */
  const settleSms = async (view: ProjectionView, set: Set<string>, messageId: string, spent: number) => {
    if (!set.has(messageId)) return; // not a verification's SMS: nothing to look up
    const sms = await view.get<SmsDoc>(VERIFICATION_SMS, messageId);
    untrack(view, set, messageId);
    if (spent === 0 || !sms) return;
    const doc = await view.get<VerificationDoc>(VERIFICATIONS, sms.verificationId);
    if (doc) view.put(VERIFICATIONS, doc.id, { ...doc, credits: doc.credits + spent }, listing(doc));
    await addToDay(view, sms.walletId, sms.day, 'credits', spent);
  };

  return {
    name: VERIFICATIONS_PROJECTION,
    collections: [
      VERIFICATIONS,
      VERIFICATION_DAYS,
      VERIFICATION_REFUSALS,
      VERIFICATION_OPEN,
      VERIFICATION_SMS,
    ],
    filter: {
      streamPrefixes: [VERIFICATION_STREAM_PREFIX, VERIFICATION_GUARD_STREAM_PREFIX, 'wallet-'],
      eventTypes: [
        ...VERIFICATION_EVENT_TYPES,
        'VerificationRefused',
        ...SETTLEMENT_EVENT_TYPES,
      ],
    },
    onResume() {
      unsettled = null; // another process may have committed batches this one never applied
    },
    async apply(recorded: RecordedEvent, view: ProjectionView) {
      // Read before anything of the batch is applied: the store then holds exactly the checkpoint's state.
      unsettled ??= await loadUnsettled();
      const set = unsettled;
      if (recorded.streamId.startsWith('wallet-')) {
        const event = recorded as unknown as WalletEvent;
        for (const { messageId, sms } of capturesIn(event)) await settleSms(view, set, messageId, sms);
        for (const { messageId } of releasesIn(event)) await settleSms(view, set, messageId, 0);
        return;
      }
      if (recorded.streamId.startsWith(VERIFICATION_GUARD_STREAM_PREFIX)) {
        if (recorded.type !== 'VerificationRefused') return;
        const { data } = recorded as unknown as VerificationRefused;
        view.put(
          VERIFICATION_REFUSALS,
          `${data.walletId}|${position20(recorded.position)}`,
          {
            to: data.to,
            limit: data.limit,
            retryAfterSeconds: data.retryAfterSeconds,
            at: data.at,
          } satisfies VerificationRefusalDoc,
          { partition: data.walletId, sort: `${data.at}|${position20(recorded.position)}` },
        );
        await addToDay(view, data.walletId, dayOf(data.at), 'refused');
        return;
      }
      const event = recorded as unknown as RecordedEvent & VerificationEvent;
      const id = recorded.streamId.slice(VERIFICATION_STREAM_PREFIX.length);
      const current = await view.get<VerificationDoc>(VERIFICATIONS, id);
      if (current && BigInt(current.revision) >= recorded.revision) return;
      if (event.type === 'VerificationStarted') {
        if (current) return;
        const d = event.data;
        const doc: VerificationDoc = {
          id,
          walletId: d.walletId,
          environment: d.environment,
          to: d.to,
          status: 'pending',
          checks: 0,
          maxChecks: d.maxChecks,
          sends: 1,
          messageIds: [d.messageId],
          expiresAt: d.expiresAt,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          approvedAt: null,
          day: dayOf(d.createdAt),
          credits: 0,
          sort: `${d.createdAt}|${position20(recorded.position)}`,
          revision: recorded.revision.toString(),
        };
        view.put(VERIFICATIONS, id, doc, listing(doc));
        openEntry(view, doc);
        track(view, set, d.messageId, { verificationId: id, walletId: d.walletId, day: doc.day });
        await addToDay(view, d.walletId, doc.day, 'started');
        return;
      }
      if (!current || current.status !== 'pending') return;
      let next: VerificationDoc = { ...current, revision: recorded.revision.toString() };
      switch (event.type) {
        case 'VerificationCodeResent':
          next = {
            ...next,
            sends: event.data.send,
            messageIds: [...current.messageIds, event.data.messageId],
            expiresAt: event.data.expiresAt,
            updatedAt: event.data.at,
          };
          openEntry(view, next);
          track(view, set, event.data.messageId, {
            verificationId: id,
            walletId: current.walletId,
            day: current.day,
          });
          break;
        case 'VerificationCheckFailed':
          next = { ...next, checks: current.checks + 1, updatedAt: event.data.at };
          break;
        default: {
          const status = ENDINGS[event.type];
          if (!status) break;
          const at = event.data.at;
          const checked = event.type === 'VerificationApproved' || event.type === 'VerificationFailed';
          next = {
            ...next,
            status,
            checks: current.checks + (checked ? 1 : 0),
            approvedAt: status === 'approved' ? at : null,
            updatedAt: at,
          };
          view.delete(VERIFICATION_OPEN, id);
          await addToDay(view, current.walletId, current.day, status);
        }
      }
      view.put(VERIFICATIONS, id, next, listing(next));
    },
  };
}
