import { join } from 'node:path';
import { Env, envInt } from '../config/env';
import type { RetryPolicy } from '../shared/retry-policy';

/** Tunables of the mail outbox, from the environment; a test may swap the provider. */
export const MAIL_OPTIONS = Symbol('MAIL_OPTIONS');

export interface MailOptions {
  /** SMTP_URL: unset, mails are written to `outboxDir` as .eml files. */
  readonly smtpUrl: string | null;
  /** MAIL_FROM: the From of every mail. */
  readonly from: string;
  /** DATA_DIR/outbox: where the embedded default writes. */
  readonly outboxDir: string;
  readonly retry: RetryPolicy;
  /** How often the outbox worker looks for mails due. */
  readonly pollMs: number;
  /** One SMTP conversation step may take this long; the attempt then fails and is retried. */
  readonly timeoutMs: number;
  /** A process that took a mail and died: others may take it after this long. */
  readonly leaseMs: number;
  /** Mails sent at once by one process. */
  readonly concurrency: number;
}

export function loadMailOptions(dataDir: string, env: Env = process.env): MailOptions {
  const timeoutMs = Math.max(1, envInt(env, 'MAIL_TIMEOUT_MS', 30_000));
  return {
    smtpUrl: env.SMTP_URL || null,
    from: env.MAIL_FROM || 'SMS Wallet <no-reply@localhost>',
    outboxDir: join(dataDir, 'outbox'),
    retry: {
      baseMs: envInt(env, 'MAIL_RETRY_BASE_MS', 30_000),
      maxMs: envInt(env, 'MAIL_RETRY_MAX_MS', 60 * 60 * 1000),
      windowMs: envInt(env, 'MAIL_RETRY_WINDOW_MS', 24 * 60 * 60 * 1000),
    },
    pollMs: Math.max(10, envInt(env, 'MAIL_POLL_MS', 1000)),
    timeoutMs,
    // Three whole SMTP timeouts (connect, a command, the data) and some room.
    leaseMs: timeoutMs * 4,
    concurrency: 4,
  };
}
