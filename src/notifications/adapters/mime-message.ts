import type { OutgoingMail } from '../ports/mail-transport.port';

/** The message as nodemailer takes it: plain text plus HTML, a Message-ID from our mail id. */
export function nodemailerMessage(mail: OutgoingMail, host: string) {
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${mail.id}@${host}>`,
    headers: { 'X-Mail-Id': mail.id },
  };
}

/** The domain of an address such as `SMS Wallet <no-reply@example.com>` (for Message-IDs). */
export function domainOf(address: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(address);
  return match ? match[1] : 'localhost';
}
