import type { Actor } from '../../shared/actor';
import type { Decider } from '../../shared/decider';
import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { SenderIdEvent } from './compliance.events';

export const SENDER_ID_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SenderIdStatus = (typeof SENDER_ID_STATUSES)[number];

/** One sender ID of one account, as the carriers' registration stands. */
export type SenderIdState =
  | { readonly status: 'none' }
  | {
      readonly status: SenderIdStatus;
      readonly accountId: string;
      readonly senderId: string;
      readonly sampleMessage: string;
      readonly reason: string | null;
      readonly requestedAt: string;
      readonly decidedAt: string | null;
    };

export const senderIdDecider: Decider<SenderIdState, SenderIdEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'SenderIdRequested':
        return {
          status: 'pending',
          accountId: event.data.accountId,
          senderId: event.data.senderId,
          sampleMessage: event.data.sampleMessage,
          reason: null,
          requestedAt: event.data.requestedAt,
          decidedAt: null,
        };
      case 'SenderIdApproved':
        return state.status === 'none'
          ? state
          : { ...state, status: 'approved', reason: null, decidedAt: event.data.approvedAt };
      case 'SenderIdRejected':
        return state.status === 'none'
          ? state
          : { ...state, status: 'rejected', reason: event.data.reason, decidedAt: event.data.rejectedAt };
      default:
        return state;
    }
  },
};

type Decision = Result<SenderIdEvent[], DomainError>;

const unknown = (senderId: string) =>
  new DomainError('not_found', 'resource_missing', `No request for sender ID ${senderId}`, 'sender_id');

/** An account's requests waiting for the operator at once (issue 28: the review queue is shared). */
export const MAX_PENDING_SENDER_IDS = 10;

/**
 * A merchant asks for a sender ID: once pending or approved it is not asked again (409); a
 * rejected one may be asked again, with a new sample, and is pending once more. An account has
 * at most MAX_PENDING_SENDER_IDS pending (`pendingOthers`: its other sender IDs pending now).
 */
export function request(
  state: SenderIdState,
  cmd: {
    accountId: string;
    senderId: string;
    sampleMessage: string;
    pendingOthers: number;
    actor?: Actor;
    now: Date;
  },
): Decision {
  if (state.status === 'pending' || state.status === 'approved') {
    return err(
      new DomainError(
        'conflict',
        'sender_id_exists',
        `Sender ID ${cmd.senderId} is already ${state.status} for this account`,
        'sender_id',
      ),
    );
  }
  if (cmd.pendingOthers >= MAX_PENDING_SENDER_IDS) {
    return err(
      invalid(
        'too_many_pending_sender_ids',
        `An account has at most ${MAX_PENDING_SENDER_IDS} sender ID requests waiting for review; ` +
          'request more once the operator has decided on some',
        'sender_id',
      ),
    );
  }
  return ok([
    {
      type: 'SenderIdRequested',
      data: {
        accountId: cmd.accountId,
        senderId: cmd.senderId,
        sampleMessage: cmd.sampleMessage,
        requestedAt: cmd.now.toISOString(),
        ...(cmd.actor ? { actor: cmd.actor } : {}),
      },
    },
  ]);
}

/** The operator approves (again: nothing new); a rejected one may be approved after all. */
export function approve(state: SenderIdState, cmd: { senderId: string; now: Date }): Decision {
  if (state.status === 'none') return err(unknown(cmd.senderId));
  if (state.status === 'approved') return ok([]);
  return ok([
    {
      type: 'SenderIdApproved',
      data: { accountId: state.accountId, senderId: state.senderId, approvedAt: cmd.now.toISOString() },
    },
  ]);
}

/** The operator rejects with a reason the merchant sees; an approved one may be withdrawn so. */
export function reject(state: SenderIdState, cmd: { senderId: string; reason: string; now: Date }): Decision {
  if (state.status === 'none') return err(unknown(cmd.senderId));
  const reason = cmd.reason.trim();
  if (reason === '')
    return err(
      new DomainError('invalid_request', 'parameter_missing', 'A rejection needs a reason', 'reason'),
    );
  if (state.status === 'rejected' && state.reason === reason) return ok([]);
  return ok([
    {
      type: 'SenderIdRejected',
      data: {
        accountId: state.accountId,
        senderId: state.senderId,
        reason,
        rejectedAt: cmd.now.toISOString(),
      },
    },
  ]);
}
