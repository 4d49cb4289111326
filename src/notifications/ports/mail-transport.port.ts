/** Outbound port to whatever delivers a rendered mail: an SMTP server, or the outbox directory. */
export const MAIL_TRANSPORT = Symbol('MAIL_TRANSPORT');

export interface OutgoingMail {
  /** Our mail id: the Message-ID is derived from it, so a mail sent again is recognisably the same. */
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface MailDelivery {
  /** What the transport calls the mail (a queue id, a file name), for the record. */
  readonly reference: string | null;
}

/**
 * The receiving server refused the mail for good (an address it does not know): retrying changes
 * nothing. Any other error means "not sent this time, try again later".
 */
export class PermanentMailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentMailError';
  }
}

export interface MailTransport {
  /** `smtp` or `outbox`, recorded with each sent mail. */
  readonly name: string;
  /** Where the mails go, for the operator (never a password). */
  describe(): string;
  send(mail: OutgoingMail): Promise<MailDelivery>;
  close(): Promise<void>;
}
