import { createTransport, type Transporter } from 'nodemailer';
import {
  type MailDelivery,
  type MailTransport,
  type OutgoingMail,
  PermanentMailError,
} from '../ports/mail-transport.port';
import { domainOf, nodemailerMessage } from './mime-message';

export interface SmtpMailTransportOptions {
  /**
   * `smtp://user:pass@host:587` (STARTTLS, required unless `?requireTLS=false`) or
   * `smtps://user:pass@host:465` (TLS from the first byte). nodemailer's URL options apply, e.g.
   * `?tls.rejectUnauthorized=false` for a relay with a self-signed certificate.
   */
  readonly url: string;
  readonly from: string;
  /** Connecting, the greeting and each command: a stuck server fails the attempt, which is retried. */
  readonly timeoutMs: number;
}

interface SmtpError {
  readonly code?: string;
  readonly responseCode?: number;
  readonly message?: string;
}

/** SMTP on nodemailer: one connection per mail, so nothing holds a server between sends. */
export class SmtpMailTransport implements MailTransport {
  readonly name = 'smtp';
  readonly #transporter: Transporter;
  readonly #target: string;
  readonly #host: string;

  constructor(options: SmtpMailTransportOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
      throw new Error('SMTP_URL must start with smtp:// (STARTTLS) or smtps:// (TLS)');
    }
    this.#target = `${url.protocol}//${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
    this.#host = domainOf(options.from);
    // The URL's own settings win over these defaults (nodemailer merges it last).
    this.#transporter = createTransport({
      url: options.url,
      requireTLS: url.protocol === 'smtp:',
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
  }

  describe(): string {
    return this.#target;
  }

  async send(mail: OutgoingMail): Promise<MailDelivery> {
    try {
      const info = await this.#transporter.sendMail(nodemailerMessage(mail, this.#host));
      return { reference: typeof info.response === 'string' ? info.response.slice(0, 200) : null };
    } catch (error) {
      const e = error as SmtpError;
      const text = redact(`${e.code ?? 'ERROR'}: ${e.message ?? String(error)}`, this.#transporter);
      // A recipient refused with a 5xx is final; a refused login or a lost connection is not.
      if (e.code === 'EENVELOPE' && (e.responseCode ?? 0) >= 500) throw new PermanentMailError(text);
      throw new Error(text);
    }
  }

  async close(): Promise<void> {
    this.#transporter.close();
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, target: this.#target };
  }
}

/** No error text ever carries the SMTP password into the log. */
function redact(text: string, transporter: Transporter): string {
  const auth = (transporter.options as { auth?: { pass?: string } }).auth;
  return auth?.pass ? text.split(auth.pass).join('[redacted]') : text;
}
