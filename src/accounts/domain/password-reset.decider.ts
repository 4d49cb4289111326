import type { Decider } from '../../shared/decider';
import { DomainError } from '../../shared/domain-error';
import { err, ok, type Result } from '../../shared/result';
import type { PasswordResetEvent, PasswordResetRequested } from './password-reset.events';

/** A reset link works this long (API.md). */
export const RESET_LINK_TTL_MS = 30 * 60 * 1000;
/** Reset mails one account gets per hour at most: more requests are answered alike and send nothing. */
export const RESETS_PER_ACCOUNT_PER_HOUR = 3;
const HOUR_MS = 60 * 60 * 1000;

export interface PasswordResets {
  readonly requests: readonly PasswordResetRequested['data'][];
  /** When a reset was last completed: every link asked for before it is spent. */
  readonly completedAt: string | null;
}

export const passwordResetsDecider: Decider<PasswordResets, PasswordResetEvent> = {
  initialState: () => ({ requests: [], completedAt: null }),
  evolve: (state, event) =>
    event.type === 'PasswordResetRequested'
      ? // Only the last hour's requests matter (throttle, links of 30 minutes): older ones are dropped.
        {
          ...state,
          requests: [
            ...state.requests.filter(
              (r) => Date.parse(r.requestedAt) > Date.parse(event.data.requestedAt) - HOUR_MS,
            ),
            event.data,
          ],
        }
      : { ...state, completedAt: event.data.completedAt },
};

/** A new link, unless the account had its hour's worth: then nothing (the answer is the same). */
export function requestReset(
  state: PasswordResets,
  cmd: Omit<PasswordResetRequested['data'], 'requestedAt' | 'expiresAt'> & { now: Date },
): Result<PasswordResetEvent[], never> {
  const recent = state.requests.filter((r) => Date.parse(r.requestedAt) > cmd.now.getTime() - HOUR_MS);
  if (recent.length >= RESETS_PER_ACCOUNT_PER_HOUR) return ok([]);
  const { now, ...data } = cmd;
  return ok([
    {
      type: 'PasswordResetRequested',
      data: {
        ...data,
        requestedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS).toISOString(),
      },
    },
  ]);
}

export const linkNotValid = () =>
  new DomainError(
    'invalid_request',
    'reset_link_invalid',
    'This link is no longer valid: ask for a new one.',
    'token',
  );

/** Uses the link whose token hashes to `tokenHash`: once, within 30 minutes, and only if no reset came after it. */
export function completeReset(
  state: PasswordResets,
  cmd: { tokenHash: string; now: Date },
): Result<PasswordResetEvent[], DomainError> {
  const request = state.requests.find((r) => r.tokenHash === cmd.tokenHash);
  if (!request) return err(linkNotValid());
  if (Date.parse(request.expiresAt) <= cmd.now.getTime()) return err(linkNotValid());
  if (state.completedAt !== null && state.completedAt >= request.requestedAt) return err(linkNotValid());
  return ok([
    {
      type: 'PasswordResetCompleted',
      data: { resetId: request.resetId, completedAt: cmd.now.toISOString() },
    },
  ]);
}
