import type { DomainEvent } from '../../shared/decider';
import type { MailTemplate } from './mail-templates';

/** One mail, one stream: `mail-<mailId>`, the id derived from the event that caused it. */
export const MAIL_STREAM_PREFIX = 'mail-';
export const mailStream = (mailId: string) => `${MAIL_STREAM_PREFIX}${mailId}`;

/** The event a mail follows from: queuing it twice for one cause is impossible (one stream). */
export interface MailCause {
  readonly streamId: string;
  readonly revision: string;
  readonly position: string;
}

export type MailQueued = DomainEvent<
  'MailQueued',
  {
    mailId: string;
    to: string;
    /** The account it concerns, when it concerns one (the operator's listing names it). */
    accountId: string | null;
    template: MailTemplate;
    cause: MailCause;
    queuedAt: string;
  }
>;
/**
 * A process took the mail to send it, until `leaseUntil`: another process (or this one after a
 * crash) may take it again only after that, so two processes never send it at once.
 */
export type MailSendStarted = DomainEvent<
  'MailSendStarted',
  { attempt: number; instance: string; at: string; leaseUntil: string }
>;
export type MailSent = DomainEvent<
  'MailSent',
  { attempt: number; at: string; transport: string; reference: string | null }
>;
export type MailAttemptFailed = DomainEvent<
  'MailAttemptFailed',
  { attempt: number; error: string; at: string; nextAttemptAt: string }
>;
/** Retried for the whole window, or refused for good (a malformed address): the operator's. */
export type MailAbandoned = DomainEvent<'MailAbandoned', { attempt: number; reason: string; at: string }>;

export type MailEvent = MailQueued | MailSendStarted | MailSent | MailAttemptFailed | MailAbandoned;

export const MAIL_EVENT_TYPES: readonly MailEvent['type'][] = [
  'MailQueued',
  'MailSendStarted',
  'MailSent',
  'MailAttemptFailed',
  'MailAbandoned',
];
