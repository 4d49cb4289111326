import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the test SMTP server received it: envelope, session facts and the decoded text. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  /** The raw RFC 5322 message. */
  readonly raw: string;
  /** `raw` with quoted-printable undone, to search for sentences in. */
  readonly decoded: string;
  readonly subject: string;
  readonly secure: boolean;
  readonly user: string | null;
  readonly mailId: string | null;
}

export interface TestSmtpServer {
  readonly port: number;
  /** `smtp://…` (STARTTLS) or `smtps://…`, with the test server's self-signed certificate accepted. */
  readonly url: string;
  readonly mails: ReceivedMail[];
  /**
   * Answers the next RCPT TO with this (e.g. `451` to fail an attempt, `550` to refuse for good);
   * `null` accepts. Counted down per refusal when `times` is given.
   */
  refuse(code: number | null, times?: number): void;
  /** Waits until `count` mails arrived (polling; the suite's own timeout bounds it). */
  waitForMails(count: number, predicate?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const USER = 'mailer';
const PASSWORD = 'mail-password-123';

/** undoes quoted-printable soft breaks and =XX escapes (enough to read the text back). */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/((?:=[0-9A-F]{2})+)/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
}

/**
 * nodemailer's smtp-server on 127.0.0.1 and an ephemeral port, requiring a login (over STARTTLS
 * with the package's test certificate, or TLS from the start with `secure`).
 */
export async function startSmtpServer(options: { secure?: boolean } = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  let refusal: { code: number; times: number } | null = null;
  const server = new SMTPServer({
    secure: options.secure ?? false,
    authMethods: ['PLAIN', 'LOGIN'],
    // A login must come after TLS: nodemailer's STARTTLS upgrade is what is being tested.
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) return callback(null, { user: USER });
      callback(new Error('Invalid username or password'));
    },
    onRcptTo(_address, _session, callback) {
      if (refusal && refusal.times > 0) {
        const code = refusal.code;
        refusal.times--;
        const error = Object.assign(new Error(code >= 500 ? 'No such user here' : 'Try again later'), {
          responseCode: code,
        });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const decoded = decodeQuotedPrintable(raw);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded,
          subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '',
          secure: session.secure,
          user: (session.user as string | undefined) ?? null,
          mailId: /^X-Mail-Id: (.*)$/im.exec(raw)?.[1]?.trim() ?? null,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  const scheme = options.secure ? 'smtps' : 'smtp';
  return {
    port,
    url: `${scheme}://${USER}:${PASSWORD}@127.0.0.1:${port}?tls.rejectUnauthorized=false`,
    mails,
    refuse(code, times = 1_000_000) {
      refusal = code === null ? null : { code, times };
    },
    async waitForMails(count, predicate = () => true) {
      for (;;) {
        const matching = mails.filter(predicate);
        if (matching.length >= count) return matching;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
