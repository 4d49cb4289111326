import { QueryBus } from '@nestjs/cqrs';
import { MailOutbox, type MailOutboxStatus } from '../../notifications/application/queries/mail-outbox.query';
import type { CliCommand } from './cli-command';

const STATUSES: readonly MailOutboxStatus[] = ['sent', 'pending', 'failed'];

/**
 * `mail:outbox`: the mails sent (each .eml file in DATA_DIR/outbox when there is no SMTP server),
 * still to send, or given up (`--status failed`: what an operator must look at).
 */
export const mailOutbox: CliCommand = {
  name: 'mail:outbox',
  usage: 'mail:outbox [--status sent|pending|failed] [--limit 50]',
  options: ['status', 'limit'],
  async run(app, options) {
    const status = (options.status ?? 'sent') as MailOutboxStatus;
    if (!STATUSES.includes(status)) throw new Error(`--status must be one of ${STATUSES.join(', ')}`);
    const limit = Number(options.limit ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error('--limit must be 1 to 1000');
    const listing = await app.get(QueryBus).execute(new MailOutbox(status, limit));
    return {
      output: {
        ...listing,
        mails: listing.mails.map((m) => ({
          id: m.id,
          to: m.to,
          kind: m.kind,
          subject: m.subject,
          status: m.status,
          attempts: m.attempts,
          queued_at: m.queuedAt,
          sent_at: m.sentAt,
          next_attempt_at: m.status === 'pending' ? m.dueAt : null,
          last_error: m.lastError,
          file: m.file,
        })),
      },
    };
  },
};
