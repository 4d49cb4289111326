import { ConsoleBrowser, previewSendForm as sendForm } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { SANDBOX, smsLeft } from '../support/messaging';
import { startTestApp, TestApp } from '../support/test-app';

describe('console: Send to many (a CSV file as one batch)', () => {
  let t: TestApp;
  let m: Merchant;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    t = await startTestApp();
    m = await createMerchant(t);
    browser = new ConsoleBrowser(t.baseUrl);
    await browser.signIn(m.email, m.password);
  });
  afterAll(() => t?.close());

  const upload = async (content: string, fields: Record<string, string> = {}) =>
    browser.upload(
      '/console/send-many/preview',
      {
        _csrf: await browser.csrf('/console/send-many'),
        sender_id: 'MyShop',
        type: 'transactional',
        ...fields,
      },
      { field: 'file', name: 'customers.csv', content },
    );

  it('previews every row with its cost or refusal, and reserves nothing', async () => {
    const before = await smsLeft(t, m.testKey);
    const csv = [
      'to,message',
      `${SANDBOX.delivered},"Hello, Ama"`,
      '+23324123,Too short a number',
      `${SANDBOX.failed}`,
      `${SANDBOX.delivered},a,b`,
    ].join('\r\n');
    const page = await upload(csv, { message: 'The common message' });
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/<strong>2 messages<\/strong> to send for <strong>2 credits<\/strong>/);
    expect(page.html).toContain('<strong>2 rows</strong> will not be sent');
    expect(page.html).toContain('Not sent: to must be a Ghana number of +233 and 9 digits');
    expect(page.html).toContain('Line 5: Expected two columns (to,message), found 3.');
    expect(page.html).toContain('The common message');
    expect(page.html).not.toMatch(/id="send-batch" disabled/);
    expect(await smsLeft(t, m.testKey)).toBe(before);
  });

  it('sends the previewed file as one batch, once however often the form is sent, and shows its progress', async () => {
    const before = await smsLeft(t, m.testKey);
    const csv = `${SANDBOX.delivered},First\n${SANDBOX.delivered},Second\n${SANDBOX.failed},Third\n`;
    const form = sendForm((await upload(csv)).html);
    expect(form.csv).toBe(csv);
    const answers = await Promise.all([
      browser.go('POST', '/console/send-many', form),
      browser.go('POST', '/console/send-many', form),
    ]);
    expect(answers.map((a) => a.status)).toEqual([303, 303]);
    expect(answers[0].location).toMatch(/^\/console\/batches\/bat_/);
    expect(answers[1].location).toBe(answers[0].location);
    const batchId = answers[0].location!.split('/').pop()!;

    const listed = await t.request('GET', `/v1/messages?batch=${batchId}`, { key: m.testKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x: { message: string }) => x.message).sort()).toEqual([
      'First',
      'Second',
      'Third',
    ]);
    expect(await smsLeft(t, m.testKey)).toBeLessThanOrEqual(before - 2);

    // The page refreshes itself until every message is final, then says so and stops.
    let page = await browser.go('GET', answers[0].location!);
    expect(page.status).toBe(200);
    for (let i = 0; i < 100 && page.html.includes('http-equiv="refresh"'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      page = await browser.go('GET', answers[0].location!);
    }
    expect(page.html).not.toContain('http-equiv="refresh"');
    expect(page.html).toMatch(/<strong>3<\/strong> of <strong>3 messages<\/strong> final/);
    expect(page.html).toMatch(/DELIVERED<\/span> 2/);
    expect(page.html).toMatch(/FAILED<\/span> 1/);
  });

  it('refuses a batch the credits do not cover, whole, and reserves nothing', async () => {
    const before = await smsLeft(t, m.testKey);
    const rows = Array.from({ length: before + 1 }, () => `${SANDBOX.delivered},One credit`).join('\n');
    const preview = await upload(rows);
    expect(preview.html).toContain('id="not-enough"');
    expect(preview.html).toMatch(/id="send-batch" disabled/);
    const sent = await browser.go('POST', '/console/send-many', sendForm(preview.html));
    expect(sent.status).toBe(402);
    expect(sent.html).toContain('id="send-many-error"');
    expect(await smsLeft(t, m.testKey)).toBe(before);
  });

  it('answers a whole-batch refusal and a bad file next to the form', async () => {
    const badSender = await upload(`${SANDBOX.delivered},Hi`, { sender_id: '!' });
    expect(badSender.status).toBe(400);
    expect(badSender.html).toMatch(/id="sender_id"[^>]*aria-invalid="true"/);
    const empty = await upload('to,message\n');
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('The file has no rows.');
    const tooLarge = await upload(`${SANDBOX.delivered},${'x'.repeat(2 * 1024 * 1024)}`);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.html).toContain('larger than 2 MB');
  });

  it("refuses an upload without the CSRF token, and another account's batch is not found", async () => {
    const forged = await browser.upload(
      '/console/send-many/preview',
      { sender_id: 'MyShop', type: 'transactional' },
      { field: 'file', name: 'x.csv', content: `${SANDBOX.delivered},Hi` },
    );
    expect(forged.status).toBe(403);
    const other = await createMerchant(t);
    const sent = await t.request('POST', '/v1/messages/batch', {
      key: other.testKey,
      body: {
        sender_id: 'MyShop',
        type: 'transactional',
        messages: [{ to: SANDBOX.delivered, message: 'Theirs' }],
      },
    });
    expect(sent.status).toBe(200);
    expect((await browser.go('GET', `/console/batches/${sent.body.id}`)).status).toBe(404);
  });

  describe('scheduled from the console', () => {
    /** A datetime-local value (Ghana time, GMT) this many ms from now. */
    const localIn = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);

    it('schedules a send, shows when, and cancels it from its page with the credit back, once', async () => {
      const before = await smsLeft(t, m.testKey);
      const sendAt = localIn(3_600_000);
      const sent = await browser.go('POST', '/console/send', {
        ...(await browser.formTokens('/console/send')),
        to: SANDBOX.delivered,
        sender_id: 'MyShop',
        message: 'See you at nine',
        type: 'transactional',
        send_at: sendAt,
      });
      expect(sent.status).toBe(303);
      const page = await browser.go('GET', sent.location!);
      expect(page.html).toContain('>SCHEDULED<');
      expect(page.html).toContain(`Scheduled for <time datetime="${sendAt}:00.000Z">`);
      expect(page.html).not.toContain('http-equiv="refresh"'); // due in an hour: not watched yet
      expect(await smsLeft(t, m.testKey)).toBe(before - 1);

      const id = sent.location!.split('/').pop()!;
      const cancelForm = { ...(await browser.formTokens(sent.location!)) };
      const answers = await Promise.all([
        browser.go('POST', `/console/messages/${id}/cancel`, cancelForm),
        browser.go('POST', `/console/messages/${id}/cancel`, cancelForm),
      ]);
      expect(answers.map((a) => [a.status, a.location])).toEqual([
        [303, sent.location],
        [303, sent.location],
      ]);
      const after = await browser.go('GET', sent.location!);
      expect(after.html).toContain('>CANCELED<');
      expect(after.html).not.toContain('id="cancel-message"');
      expect(await smsLeft(t, m.testKey)).toBe(before);
    });

    it('answers a send_at in the past next to the field, and sends nothing', async () => {
      const before = await smsLeft(t, m.testKey);
      const refused = await browser.go('POST', '/console/send', {
        ...(await browser.formTokens('/console/send')),
        to: SANDBOX.delivered,
        sender_id: 'MyShop',
        message: 'Too late',
        type: 'transactional',
        send_at: localIn(-3_600_000),
      });
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('send_at must be in the future');
      expect(refused.html).toMatch(/id="send_at"[^>]*aria-invalid="true"/);
      expect(await smsLeft(t, m.testKey)).toBe(before);
    });

    it('schedules a whole file, and its batch page waits without reloading', async () => {
      const sendAt = localIn(2 * 3_600_000);
      const preview = await upload(`${SANDBOX.delivered},Later\n${SANDBOX.delivered},Later too\n`, {
        send_at: sendAt,
      });
      expect(preview.html).toContain(`scheduled for <time datetime="${sendAt}:00Z">`);
      const sent = await browser.go('POST', '/console/send-many', sendForm(preview.html));
      expect(sent.status).toBe(303);
      const page = await browser.go('GET', sent.location!);
      expect(page.html).toMatch(/SCHEDULED<\/span> 2/);
      expect(page.html).not.toContain('http-equiv="refresh"');
      expect(page.html).toContain('The others are scheduled');
    });
  });
});
