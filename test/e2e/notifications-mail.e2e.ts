import { QueryBus } from '@nestjs/cqrs';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  MailOutbox,
  type MailOutboxListing,
} from '../../src/notifications/application/queries/mail-outbox.query';
import { CapturedLogs } from '../support/captured-logs';
import { runCliProcess } from '../support/cli';
import { createMerchant } from '../support/merchant';
import { startSmtpServer, TestSmtpServer } from '../support/smtp-server';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/**
 * Mail as a real channel (issue 31): the outbox worker sends each mail once through a real SMTP
 * server started here (STARTTLS and TLS, with a login), retries what the server refuses for now,
 * gives up what it refuses for good (visible to the operator), and without SMTP_URL writes .eml
 * files that `mail:outbox` lists. A sender ID approval is the cause in each case.
 */
jest.setTimeout(120_000);

const FAST_MAIL = { MAIL_POLL_MS: '50', MAIL_RETRY_BASE_MS: '100', MAIL_RETRY_MAX_MS: '200' };

async function outbox(t: TestApp, status: 'sent' | 'pending' | 'failed'): Promise<MailOutboxListing> {
  return t.app.get(QueryBus).execute(new MailOutbox(status, 100));
}

async function mailOf(t: TestApp, email: string, status: 'sent' | 'failed') {
  return eventually(
    async () => (await outbox(t, status)).mails.find((m) => m.to === email),
    60_000,
    `a ${status} mail to ${email}`,
  );
}

describe('Mail through SMTP (STARTTLS, login)', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  // A mail given up is an error in the log (what an operator's alert watches): asserted, not printed.
  const logs = new CapturedLogs();

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await startTestApp({
      logs,
      env: { ...FAST_MAIL, SMTP_URL: smtp.url, MAIL_FROM: 'SMS Wallet <billing@sms.example>' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('sends the sender ID decision once, over TLS after STARTTLS, in text and HTML', async () => {
    const merchant = await createMerchant(t);
    const [mail] = await smtp.waitForMails(1, (m) => m.to.includes(merchant.email));
    expect(mail.secure).toBe(true);
    expect(mail.user).toBe('mailer');
    expect(mail.from).toBe('billing@sms.example');
    expect(mail.subject).toBe('Sender ID MyShop approved');
    expect(mail.raw).toContain('Content-Type: text/plain');
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.decoded).toContain('Your sender ID MyShop is approved: LIVE messages may now use it.');
    const sent = await mailOf(t, merchant.email, 'sent');
    expect(sent).toMatchObject({
      kind: 'sender_id_decided',
      attempts: 1,
      transport: 'smtp',
      id: mail.mailId,
    });
    expect(smtp.mails.filter((m) => m.mailId === sent.id)).toHaveLength(1);
  });

  it('retries a mail the server refuses for now, and sends it once when it accepts', async () => {
    smtp.refuse(451, 2);
    const merchant = await createMerchant(t);
    const sent = await mailOf(t, merchant.email, 'sent');
    expect(sent.attempts).toBe(3);
    expect(smtp.mails.filter((m) => m.mailId === sent.id)).toHaveLength(1);
  });

  it('gives up a mail the server refuses for good, and the operator sees it with the reason', async () => {
    smtp.refuse(550, 1);
    const merchant = await createMerchant(t);
    const failed = await mailOf(t, merchant.email, 'failed');
    expect(failed.lastError).toMatch(/^refused: .*550/);
    expect(smtp.mails.filter((m) => m.mailId === failed.id)).toHaveLength(0);
    expect(logs.errors()).toEqual([
      expect.stringMatching(new RegExp(`^\\[mail-outbox\\] mail ${failed.id} .*given up: refused: .*550`)),
    ]);
    // No secret of the connection in what the operator reads.
    expect(JSON.stringify(await outbox(t, 'failed'))).not.toContain('mail-password-123');
  });
});

describe('Mail through SMTPS (TLS from the first byte)', () => {
  it('sends over smtps://', async () => {
    const smtp = await startSmtpServer({ secure: true });
    const t = await startTestApp({ env: { ...FAST_MAIL, SMTP_URL: smtp.url } });
    try {
      const merchant = await createMerchant(t);
      const [mail] = await smtp.waitForMails(1, (m) => m.to.includes(merchant.email));
      expect(mail.secure).toBe(true);
      expect(mail.subject).toBe('Sender ID MyShop approved');
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});

describe('Mail without a server: the outbox directory', () => {
  it('writes each mail as an .eml file in DATA_DIR/outbox, listed by mail:outbox', async () => {
    const t = await startTestApp({ env: FAST_MAIL, keepData: true });
    let merchantEmail = '';
    try {
      const merchant = await createMerchant(t);
      merchantEmail = merchant.email;
      await mailOf(t, merchant.email, 'sent');
    } finally {
      await t.close();
    }
    const listed = await runCliProcess(t.dataDir, ['mail:outbox']);
    expect(listed.code).toBe(0);
    const output = listed.output as {
      transport: string;
      target: string;
      mails: { to: string; file: string; subject: string }[];
    };
    expect(output.transport).toBe('outbox');
    expect(output.target).toBe(join(t.dataDir, 'outbox'));
    const mail = output.mails.find((m) => m.to === merchantEmail)!;
    expect(mail.subject).toBe('Sender ID MyShop approved');
    expect(existsSync(mail.file)).toBe(true);
    const eml = readFileSync(mail.file, 'utf8');
    expect(eml).toContain(`To: ${merchantEmail}`);
    expect(eml).toContain('Subject: Sender ID MyShop approved');
    expect((await runCliProcess(t.dataDir, ['mail:outbox', '--status', 'failed'])).output).toMatchObject({
      mails: [],
    });
  });
});
