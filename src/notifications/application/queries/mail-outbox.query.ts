import { Query } from '@nestjs/cqrs';
import type { MailDoc } from '../../projections/mail-outbox.projection';

export type MailOutboxStatus = 'pending' | 'sent' | 'failed';

export interface MailOutboxListing {
  readonly transport: string;
  /** The outbox directory, or the SMTP server (never its password). */
  readonly target: string;
  readonly status: MailOutboxStatus;
  readonly mails: readonly (MailDoc & { readonly file: string | null })[];
}

/** The operator's view of the outbox (`mail:outbox`): newest first within a status. */
export class MailOutbox extends Query<MailOutboxListing> {
  constructor(
    readonly status: MailOutboxStatus,
    readonly limit: number,
  ) {
    super();
  }
}
