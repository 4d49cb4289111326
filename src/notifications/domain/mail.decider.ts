import type { Decider } from '../../shared/decider';
import { ok, type Result } from '../../shared/result';
import { backoffMs, type RetryPolicy, windowExpired } from '../../shared/retry-policy';
import type { MailEvent, MailQueued } from './mail.events';

export type MailStatus = 'none' | 'pending' | 'sending' | 'sent' | 'abandoned';

export interface Mail {
  readonly status: MailStatus;
  readonly queued: MailQueued['data'] | null;
  /** Attempts started so far. */
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly leaseUntil: string | null;
  readonly firstAttemptAt: string | null;
  readonly lastError: string | null;
}

export const initialState = (): Mail => ({
  status: 'none',
  queued: null,
  attempts: 0,
  nextAttemptAt: null,
  leaseUntil: null,
  firstAttemptAt: null,
  lastError: null,
});

export function evolve(m: Mail, e: MailEvent): Mail {
  switch (e.type) {
    case 'MailQueued':
      return { ...m, status: 'pending', queued: e.data, nextAttemptAt: e.data.queuedAt };
    case 'MailSendStarted':
      return {
        ...m,
        status: 'sending',
        attempts: e.data.attempt,
        leaseUntil: e.data.leaseUntil,
        firstAttemptAt: m.firstAttemptAt ?? e.data.at,
      };
    case 'MailSent':
      return { ...m, status: 'sent', leaseUntil: null, lastError: null };
    case 'MailAttemptFailed':
      return {
        ...m,
        status: 'pending',
        leaseUntil: null,
        nextAttemptAt: e.data.nextAttemptAt,
        lastError: e.data.error,
      };
    case 'MailAbandoned':
      return { ...m, status: 'abandoned', leaseUntil: null, lastError: e.data.reason };
  }
}

export const mailDecider: Decider<Mail, MailEvent> = { initialState, evolve };

type Decision = Result<MailEvent[], never>;

/** Queues a mail once: the stream of its cause's mail id exists already → nothing. */
export function queue(m: Mail, data: MailQueued['data']): Decision {
  if (m.status !== 'none') return ok([]);
  return ok([{ type: 'MailQueued', data }]);
}

/** Whether a process may take the mail now: due and pending, or its last taker's lease ran out. */
export function dueAt(m: Mail): string | null {
  if (m.status === 'pending') return m.nextAttemptAt;
  if (m.status === 'sending') return m.leaseUntil;
  return null;
}

/** Takes the mail to send it (attempt n+1), when it is due; else nothing (someone else has it). */
export function claim(m: Mail, cmd: { instance: string; now: Date; leaseMs: number }): Decision {
  const due = dueAt(m);
  if (due === null || Date.parse(due) > cmd.now.getTime()) return ok([]);
  return ok([
    {
      type: 'MailSendStarted',
      data: {
        attempt: m.attempts + 1,
        instance: cmd.instance,
        at: cmd.now.toISOString(),
        leaseUntil: new Date(cmd.now.getTime() + cmd.leaseMs).toISOString(),
      },
    },
  ]);
}

/** The attempt that holds the mail went through. */
export function sent(
  m: Mail,
  cmd: { attempt: number; transport: string; reference: string | null; now: Date },
): Decision {
  if (m.status !== 'sending' || m.attempts !== cmd.attempt) return ok([]);
  return ok([
    {
      type: 'MailSent',
      data: {
        attempt: cmd.attempt,
        at: cmd.now.toISOString(),
        transport: cmd.transport,
        reference: cmd.reference,
      },
    },
  ]);
}

/**
 * The attempt failed: tried again after the policy's backoff, or given up when the window since
 * the first attempt is over or the failure is permanent (the server refused the address for good).
 */
export function failed(
  m: Mail,
  cmd: {
    attempt: number;
    error: string;
    permanent: boolean;
    policy: RetryPolicy;
    now: Date;
    random?: () => number;
  },
): Decision {
  if (m.status !== 'sending' || m.attempts !== cmd.attempt) return ok([]);
  const at = cmd.now.toISOString();
  if (cmd.permanent || windowExpired(cmd.policy, m.firstAttemptAt, cmd.now)) {
    const why = cmd.permanent ? 'refused' : 'retried for the whole window; last';
    return ok([
      { type: 'MailAbandoned', data: { attempt: cmd.attempt, reason: `${why}: ${cmd.error}`, at } },
    ]);
  }
  const wait = backoffMs(cmd.policy, cmd.attempt, cmd.random);
  return ok([
    {
      type: 'MailAttemptFailed',
      data: {
        attempt: cmd.attempt,
        error: cmd.error,
        at,
        nextAttemptAt: new Date(cmd.now.getTime() + wait).toISOString(),
      },
    },
  ]);
}
