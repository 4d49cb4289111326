import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import { renderMail, type MailKind } from '../domain/mail-templates';
import { MAIL_EVENT_TYPES, MAIL_STREAM_PREFIX, type MailEvent } from '../domain/mail.events';

export const MAILS = 'mails';
export const MAIL_OUTBOX_PROJECTION = 'mail-outbox';

/** Partitions: mails still to send (sorted by when they are due), sent ones, and given-up ones. */
export const DUE = 'due';
export const SENT = 'sent';
export const FAILED = 'failed';

export type MailListStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface MailDoc {
  readonly id: string;
  readonly to: string;
  readonly accountId: string | null;
  readonly kind: MailKind;
  readonly subject: string;
  readonly status: MailListStatus;
  readonly attempts: number;
  /** When the worker may take it next (pending: the retry time; sending: the end of the lease). */
  readonly dueAt: string | null;
  readonly lastError: string | null;
  readonly queuedAt: string;
  readonly sentAt: string | null;
  readonly transport: string | null;
  /** The transport's name for it: the .eml file in the outbox, or the SMTP server's answer. */
  readonly reference: string | null;
}

const dueIndex = (id: string, at: string) => ({ partition: DUE, sort: `${at}|${id}` });
const doneIndex = (partition: string, doc: MailDoc) => ({ partition, sort: `${doc.queuedAt}|${doc.id}` });

/**
 * The outbox as the worker and the operator see it: one document per mail. The worker lists the
 * `due` partition in time order; `mail:outbox` lists any partition.
 */
export const mailOutboxProjection: Projection = {
  name: MAIL_OUTBOX_PROJECTION,
  kind: 'read-model',
  collections: [MAILS],
  filter: { streamPrefixes: [MAIL_STREAM_PREFIX], eventTypes: MAIL_EVENT_TYPES },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const event = recorded as unknown as RecordedEvent & MailEvent;
    const id = recorded.streamId.slice(MAIL_STREAM_PREFIX.length);
    if (event.type === 'MailQueued') {
      const d = event.data;
      // The subject has no secret in it; the body is rendered only when sent.
      const { subject } = renderMail(d.template, { publicUrl: '', open: () => '' });
      const doc: MailDoc = {
        id,
        to: d.to,
        accountId: d.accountId,
        kind: d.template.kind,
        subject,
        status: 'pending',
        attempts: 0,
        dueAt: d.queuedAt,
        lastError: null,
        queuedAt: d.queuedAt,
        sentAt: null,
        transport: null,
        reference: null,
      };
      view.put(MAILS, id, doc, dueIndex(id, d.queuedAt), { fresh: true });
      return;
    }
    const current = await view.get<MailDoc>(MAILS, id);
    if (!current) return;
    switch (event.type) {
      case 'MailSendStarted':
        if (event.data.attempt <= current.attempts) return;
        put(view, {
          ...current,
          status: 'sending',
          attempts: event.data.attempt,
          dueAt: event.data.leaseUntil,
        });
        return;
      case 'MailAttemptFailed':
        if (current.status !== 'sending' || event.data.attempt !== current.attempts) return;
        put(view, {
          ...current,
          status: 'pending',
          dueAt: event.data.nextAttemptAt,
          lastError: event.data.error,
        });
        return;
      case 'MailSent':
        put(view, {
          ...current,
          status: 'sent',
          dueAt: null,
          lastError: null,
          sentAt: event.data.at,
          transport: event.data.transport,
          reference: event.data.reference,
        });
        return;
      case 'MailAbandoned':
        put(view, { ...current, status: 'failed', dueAt: null, lastError: event.data.reason });
        return;
    }
  },
};

function put(view: ProjectionView, doc: MailDoc): void {
  const index =
    doc.status === 'sent'
      ? doneIndex(SENT, doc)
      : doc.status === 'failed'
        ? doneIndex(FAILED, doc)
        : dueIndex(doc.id, doc.dueAt ?? doc.queuedAt);
  view.put(MAILS, doc.id, doc, index);
}
