import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';
import type { MailDelivery, MailTransport, OutgoingMail } from '../ports/mail-transport.port';
import { domainOf, nodemailerMessage } from './mime-message';

/**
 * The embedded default, without any server: each mail is written as `<mail id>.eml` (RFC 5322,
 * what a mail client opens) into the outbox directory. Written under a temporary name and renamed,
 * so a reader never sees half a file; the same mail written again replaces itself.
 */
export class OutboxDirMailTransport implements MailTransport {
  readonly name = 'outbox';
  readonly #composer: Transporter;
  readonly #host: string;

  constructor(
    readonly directory: string,
    from: string,
  ) {
    this.#composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    this.#host = domainOf(from);
  }

  describe(): string {
    return this.directory;
  }

  async send(mail: OutgoingMail): Promise<MailDelivery> {
    const info = await this.#composer.sendMail(nodemailerMessage(mail, this.#host));
    const file = `${mail.id}.eml`;
    await mkdir(this.directory, { recursive: true });
    const temporary = join(this.directory, `.${file}.${process.pid}.tmp`);
    await writeFile(temporary, info.message as Buffer);
    await rename(temporary, join(this.directory, file));
    return { reference: file };
  }

  async close(): Promise<void> {
    this.#composer.close();
  }
}
