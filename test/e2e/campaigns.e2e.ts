import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { RebuildProjections } from '../../src/shared/projections/rebuild-projections.command';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant, Merchant } from '../support/merchant';
import { SANDBOX } from '../support/messaging';
import { eventually, expectError, startTestApp, TestApp, TestResponse } from '../support/test-app';
import { settledIn } from '../support/wallet-settlements';

/**
 * Campaigns to audiences end to end over HTTP (API.md, "Campaigns to audiences"): every route and
 * rule. The kill -9 resume and two processes on one store are test/reliability/campaigns.e2e.ts.
 */
jest.setTimeout(240_000);

let serial = 0;
/** A fresh valid MTN number for each call. */
const mtn = () => `+23324${String(1_000_000 + ((Date.now() * 7 + ++serial * 7919) % 8_999_999)).slice(0, 7)}`;
const FINAL = new Set(['completed', 'canceled']);

describe('Campaigns to audiences', () => {
  let t: TestApp;
  let m: Merchant;

  beforeAll(async () => {
    t = await startTestApp({
      env: { TEST_DLR_DELAY_MS: '50', CAMPAIGN_POLL_MS: '50', CONTACT_IMPORT_POLL_MS: '50' },
    });
    m = await createMerchant(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  const call = (
    method: string,
    path: string,
    body?: unknown,
    key = m.testKey,
    headers?: Record<string, string>,
  ) => t.request(method, path, { key, headers, ...(body === undefined ? {} : { body }) });
  const ok = (response: TestResponse, status = 200) => {
    expect({ status: response.status, body: response.body }).toMatchObject({ status, body: {} });
    return response.body;
  };
  const group = async (name = 'A group', key = m.testKey) =>
    ok(await call('POST', '/v1/groups', { name }, key));
  const contact = async (body: Record<string, unknown>, key = m.testKey) =>
    ok(await call('POST', '/v1/contacts', body, key));
  const smsLeft = async (key = m.testKey) =>
    ok(await call('GET', '/v1/billing', undefined, key)).sms_left as number;
  const campaign = (id: string, key = m.testKey) => call('GET', `/v1/campaigns/${id}`, undefined, key);
  /** The campaign once every message is final and its credits are settled (captured or released). */
  const settled = (id: string, key = m.testKey) =>
    eventually(
      async () => {
        const c = ok(await campaign(id, key));
        if (!FINAL.has(c.status)) return undefined;
        const delivered = c.counts.DELIVERED as number;
        return c.credits_spent >= delivered ? c : undefined;
      },
      60_000,
      `campaign ${id} to complete`,
    );
  const body = (over: Record<string, unknown>) => ({
    name: 'Term reminder',
    sender_id: 'MyShop',
    type: 'transactional',
    message: 'Dear {{first_name|Parent}}, school resumes on Monday.',
    ...over,
  });
  const messagesOf = async (id: string, key = m.testKey) => {
    const all: { id: string; to: string; status: string; message: string }[] = [];
    for (let after = ''; ;) {
      const page = ok(
        await call(
          'GET',
          `/v1/messages?campaign=${id}&limit=100${after ? `&starting_after=${after}` : ''}`,
          undefined,
          key,
        ),
      );
      all.push(...page.data);
      if (!page.has_more) return all;
      after = page.data[page.data.length - 1].id;
    }
  };

  describe('a campaign to groups and contacts', () => {
    it('sends one personalised message per number, counts them by status and carrier, and completes', async () => {
      const parents = await group('Parents');
      const staff = await group('Staff');
      const ama = await contact({
        phone_number: SANDBOX.delivered,
        name: 'Ama Mensah',
        fields: { first_name: 'Ama' },
        groups: [parents.id, staff.id],
      });
      await contact({
        phone_number: SANDBOX.failed,
        name: 'Kofi',
        fields: { first_name: 'Kofi' },
        groups: [parents.id],
      });
      await contact({ phone_number: SANDBOX.expired, name: 'Efua', groups: [staff.id] });
      const yaw = await contact({ phone_number: mtn(), name: 'Yaw', fields: { first_name: 'Yaw' } });
      const before = await smsLeft();

      const created = ok(
        await call(
          'POST',
          '/v1/campaigns',
          body({ audience: { groups: [parents.id, staff.id], contacts: [yaw.id, ama.id] } }),
        ),
      );
      expect(created).toMatchObject({
        object: 'campaign',
        id: expect.stringMatching(/^cmp_/),
        name: 'Term reminder',
        status: 'sending',
        environment: 'TEST',
        type: 'transactional',
        sender_id: 'MyShop',
        template_id: null,
        send_at: null,
        recipients: 4,
        // Ama is in both groups and named on her own: reached three times, sent once.
        skipped: { opted_out: 0, missing_field: 0, duplicate: 2, unsendable: 0 },
        credits_reserved: 4,
        credits_spent: 0,
        retry_of: null,
        completed_at: null,
      });
      expect(Object.keys(created.counts)).toEqual([
        'SCHEDULED',
        'QUEUED',
        'SENT',
        'DELIVERED',
        'FAILED',
        'EXPIRED',
        'CANCELED',
      ]);
      // Every credit was held at once, before the answer.
      expect(await smsLeft()).toBe(before - 4);

      const done = await settled(created.id);
      expect(done).toMatchObject({
        status: 'completed',
        completed_at: expect.any(String),
        counts: { SCHEDULED: 0, QUEUED: 0, SENT: 0, DELIVERED: 2, FAILED: 1, EXPIRED: 1, CANCELED: 0 },
        by_carrier: {
          TELECEL: { delivered: 1, failed: 1, expired: 1, pending: 0 },
          MTN: { delivered: 1, failed: 0, expired: 0, pending: 0 },
        },
        credits_spent: 2,
      });
      expect(await eventually(async () => ((await smsLeft()) === before - 2 ? true : undefined))).toBe(true);

      const messages = await messagesOf(created.id);
      expect(messages.map((x) => [x.to, x.message]).sort()).toEqual(
        [
          [SANDBOX.delivered, 'Dear Ama, school resumes on Monday.'],
          [SANDBOX.failed, 'Dear Kofi, school resumes on Monday.'],
          [SANDBOX.expired, 'Dear Parent, school resumes on Monday.'],
          [yaw.phone_number, 'Dear Yaw, school resumes on Monday.'],
        ].sort(),
      );
      const listed = ok(await call('GET', '/v1/campaigns?limit=1'));
      expect(listed).toMatchObject({ object: 'list', has_more: expect.any(Boolean) });
      expect(listed.data[0].id).toBe(created.id);
    });

    it('streams the report: one row per message with its name, status, carrier and final time', async () => {
      const own = (await createMerchant(t)).testKey; // a sandbox number is one contact per wallet
      const g = await group('Report', own);
      await contact({ phone_number: SANDBOX.delivered, name: '=cmd|calc', groups: [g.id] }, own);
      await contact({ phone_number: SANDBOX.rejected, name: 'Ama, "the teacher"', groups: [g.id] }, own);
      const campaignBody = body({ message: 'Hello', audience: { groups: [g.id] } });
      const c = ok(await call('POST', '/v1/campaigns', campaignBody, own));
      await settled(c.id, own);
      const report = await call('GET', `/v1/campaigns/${c.id}/report.csv`, undefined, own);
      expect(report.status).toBe(200);
      expect(report.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const lines = report.text.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'message_id,to,name,status,carrier,segments,credits,error_code,created_at,final_at',
      );
      expect(lines.slice(1).sort()).toEqual(
        [
          expect.stringMatching(
            new RegExp(
              `^msg_\\w{25},\\${SANDBOX.delivered},'=cmd\\|calc,DELIVERED,TELECEL,1,1,,\\S+Z,\\S+Z$`,
            ),
          ),
          expect.stringMatching(
            new RegExp(
              `^msg_\\w{25},\\${SANDBOX.rejected},"Ama, ""the teacher""",FAILED,TELECEL,1,1,rejected,\\S+Z,\\S+Z$`,
            ),
          ),
        ].sort(),
      );
      expect(lines).toHaveLength(3);
      // Another wallet's campaign, and an unknown one.
      expectError(await call('GET', `/v1/campaigns/${c.id}/report.csv`), 404, 'resource_missing');
      expectError(
        await call('GET', '/v1/campaigns/cmp_0000000000000000000000/report.csv'),
        404,
        'resource_missing',
      );
    });

    it('writes a campaign of several chunks, each number once, listed in number order', async () => {
      const g = await group('Big');
      const rows = Array.from(
        { length: 2300 },
        (_, i) => `0246${String(100_000 + i)},Parent ${i},JSS ${i % 3}`,
      );
      const imported = await t.request('POST', `/v1/contact_imports?group=${g.id}&default_country=GH`, {
        key: m.testKey,
        body: `phone_number,name,class\n${rows.join('\n')}\n`,
        headers: { 'content-type': 'text/csv' },
      });
      expect(imported.status).toBe(202);
      await eventually(
        async () =>
          ok(await call('GET', `/v1/contact_imports/${imported.body.id}`)).status === 'completed'
            ? true
            : undefined,
        60_000,
      );
      await grantCredits(2300); // a TEST wallet opens with 100
      const c = ok(
        await call(
          'POST',
          '/v1/campaigns',
          body({ message: '{{class}} resumes Monday', audience: { groups: [g.id] } }),
          m.testKey,
        ),
      );
      expect(c).toMatchObject({ recipients: 2300, credits_reserved: 2300 });
      const done = await settled(c.id);
      expect(done.counts.DELIVERED).toBe(2300);
      expect(done.by_carrier).toEqual({ MTN: { delivered: 2300, failed: 0, expired: 0, pending: 0 } });
      const messages = await messagesOf(c.id);
      expect(messages).toHaveLength(2300);
      expect(new Set(messages.map((x) => x.to)).size).toBe(2300);
    });
  });

  /** Tops the suite's TEST wallet up through an operator grant. */
  async function grantCredits(sms: number) {
    const granted = await t.app.get(WalletService).addCredits(m.wallets.TEST, {
      sourceId: `grant-${sms}-${serial++}`,
      source: 'operator_grant',
      sms,
      reason: 'e2e campaign credits',
    });
    expect(granted.ok).toBe(true);
  }

  describe('who gets a message', () => {
    it('skips opted-out numbers for a promotional campaign only, and contacts missing a field with no fallback', async () => {
      const g = await group('Rules');
      const out = await contact({
        phone_number: mtn(),
        name: 'Out',
        fields: { first_name: 'Out' },
        groups: [g.id],
      });
      ok(await call('PATCH', `/v1/contacts/${out.id}`, { opted_out: true }));
      await contact({ phone_number: mtn(), name: 'Nameless', groups: [g.id] });
      await contact({ phone_number: mtn(), name: 'Abena', fields: { first_name: 'Abena' }, groups: [g.id] });
      const strict = { message: 'Hi {{first_name}}', audience: { groups: [g.id] } };
      const promo = ok(await call('POST', '/v1/campaigns/quote', body({ ...strict, type: 'promotional' })));
      expect(promo).toMatchObject({
        recipients: 1,
        skipped: { opted_out: 1, missing_field: 1, duplicate: 0, unsendable: 0 },
      });
      const transactional = ok(await call('POST', '/v1/campaigns/quote', body(strict)));
      expect(transactional).toMatchObject({ recipients: 2, skipped: { opted_out: 0, missing_field: 1 } });
      const sent = ok(await call('POST', '/v1/campaigns', body({ ...strict, type: 'promotional' })));
      expect(sent).toMatchObject({ recipients: 1, skipped: { opted_out: 1, missing_field: 1 } });
      expect((await messagesOf(sent.id)).map((x) => x.message)).toEqual(['Hi Abena']);
    });

    it('skips as unsendable a number no route reaches, and refuses an audience nobody can be sent', async () => {
      const g = await group('Abroad');
      await contact({ phone_number: '+2348031234567', name: 'Lagos', groups: [g.id] });
      const quote = ok(await call('POST', '/v1/campaigns/quote', body({ audience: { groups: [g.id] } })));
      expect(quote).toMatchObject({
        recipients: 0,
        sendable: false,
        skipped: { unsendable: 1 },
        samples: [],
      });
      const refused = expectError(
        await call('POST', '/v1/campaigns', body({ audience: { groups: [g.id] } })),
        400,
        'no_recipients',
      );
      expect(refused.param).toBe('audience');
    });

    it('sends a saved template; refuses an unknown one, both message and template, and bad placeholders', async () => {
      const g = await group('Templated');
      await contact({ phone_number: mtn(), name: 'Akua', fields: { class: 'JSS 1' }, groups: [g.id] });
      const tpl = ok(
        await call('POST', '/v1/templates', { name: 'T', message: '{{name}}: {{class}} resumes' }),
      );
      const c = ok(
        await call('POST', '/v1/campaigns', {
          ...body({ audience: { groups: [g.id] } }),
          message: undefined,
          template_id: tpl.id,
        }),
      );
      expect(c).toMatchObject({ template_id: tpl.id, message: '{{name}}: {{class}} resumes', recipients: 1 });
      expect((await messagesOf(c.id))[0].message).toBe('Akua: JSS 1 resumes');
      const missing = expectError(
        await call('POST', '/v1/campaigns', {
          ...body({ audience: { groups: [g.id] } }),
          message: undefined,
          template_id: 'tpl_0000000000000000000000',
        }),
        404,
        'resource_missing',
      );
      expect(missing.param).toBe('template_id');
      expect(
        expectError(
          await call('POST', '/v1/campaigns', body({ template_id: tpl.id, audience: { groups: [g.id] } })),
          400,
          'parameter_invalid',
        ).param,
      ).toBe('template_id');
      expect(
        expectError(
          await call('POST', '/v1/campaigns', body({ message: 'Hi {name}', audience: { groups: [g.id] } })),
          400,
          'invalid_template',
        ).param,
      ).toBe('message');
    });
  });

  describe('the quote', () => {
    it('answers recipients, credits and the first 5 personalised messages in number order, holding nothing', async () => {
      const g = await group('Quoted');
      const numbers = Array.from({ length: 7 }, () => mtn()).sort();
      for (const [i, n] of numbers.entries())
        await contact({ phone_number: n, fields: { first_name: `P${i}` }, groups: [g.id] });
      const before = await smsLeft();
      const quote = ok(
        await call(
          'POST',
          '/v1/campaigns/quote',
          body({ message: 'Hello {{first_name}} ✓', audience: { groups: [g.id] } }),
        ),
      );
      expect(quote).toEqual({
        object: 'campaign_quote',
        recipients: 7,
        skipped: { opted_out: 0, missing_field: 0, duplicate: 0, unsendable: 0 },
        segments: 7,
        credits: 7,
        sms_left: before,
        sendable: before >= 7,
        samples: numbers.slice(0, 5).map((to, i) => ({ to, message: `Hello P${i} ✓`, segments: 1 })),
      });
      expect(await smsLeft()).toBe(before);
      const long = ok(
        await call(
          'POST',
          '/v1/campaigns/quote',
          body({ message: 'x'.repeat(1500), audience: { groups: [g.id] } }),
        ),
      );
      expect(long).toMatchObject({ credits: 70, segments: 70 });
      expect(long.sendable).toBe(before >= 70);
    });
  });

  describe('credits: all at once, or 402 and nothing', () => {
    it('refuses a campaign the wallet cannot pay for whole, recording nothing', async () => {
      const poor = await createMerchant(t);
      const g = await group('Poor', poor.testKey);
      for (let i = 0; i < 11; i++) await contact({ phone_number: mtn(), groups: [g.id] }, poor.testKey);
      const tenSegments = 'y'.repeat(1530); // 10 GSM-7 segments: 110 credits for 11, with 100 in the wallet
      const refused = await call(
        'POST',
        '/v1/campaigns',
        body({ message: tenSegments, audience: { groups: [g.id] } }),
        poor.testKey,
      );
      expect(expectError(refused, 402, 'insufficient_credit').message).toBe(
        'This campaign needs 110 credits but the wallet has 100 left',
      );
      expect(await smsLeft(poor.testKey)).toBe(100);
      expect(ok(await call('GET', '/v1/campaigns', undefined, poor.testKey)).data).toEqual([]);
      expect(ok(await call('GET', '/v1/messages', undefined, poor.testKey)).data).toEqual([]);
    });
  });

  describe('scheduling and cancel', () => {
    it('schedules every message with its credits held; cancel cancels them and releases the credits once', async () => {
      const g = await group('Later');
      for (let i = 0; i < 3; i++) await contact({ phone_number: mtn(), groups: [g.id] });
      const sendAt = new Date(Date.now() + 3_600_000).toISOString();
      const before = await smsLeft();
      const c = ok(
        await call('POST', '/v1/campaigns', body({ send_at: sendAt, audience: { groups: [g.id] } })),
      );
      expect(c).toMatchObject({ status: 'scheduled', send_at: sendAt, recipients: 3 });
      expect(c.counts.SCHEDULED).toBe(3);
      expect((await messagesOf(c.id)).map((x) => x.status)).toEqual(['SCHEDULED', 'SCHEDULED', 'SCHEDULED']);
      expect(await smsLeft()).toBe(before - 3);

      const canceled = ok(await call('POST', `/v1/campaigns/${c.id}/cancel`));
      expect(canceled).toMatchObject({
        status: 'canceled',
        counts: { SCHEDULED: 0, CANCELED: 3 },
        completed_at: expect.any(String),
      });
      expect(await smsLeft()).toBe(before);
      expect((await messagesOf(c.id)).map((x) => x.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
      // Asked again it answers the campaign as it is; the credits came back once.
      expect(ok(await call('POST', `/v1/campaigns/${c.id}/cancel`)).status).toBe('canceled');
      await new Promise((resolve) => setTimeout(resolve, 300)); // let the settlement process see the cancels
      expect(await smsLeft()).toBe(before);
      const events = await t.app
        .get<EventStore>(EVENT_STORE)
        .readAll({ filter: { eventTypes: ['ReservationReleased', 'ReservationsSettled'] } });
      const releases = settledIn(events).released.filter((id) => id.startsWith(`msg_${c.id.slice(4)}`));
      expect(releases).toHaveLength(3);
    });

    it('refuses to cancel a campaign that is already sending, another wallet’s, or an unknown one', async () => {
      const g = await group('Now');
      await contact({ phone_number: mtn(), groups: [g.id] });
      const c = ok(await call('POST', '/v1/campaigns', body({ audience: { groups: [g.id] } })));
      expectError(await call('POST', `/v1/campaigns/${c.id}/cancel`), 409, 'campaign_not_cancelable');
      const other = await createMerchant(t);
      expectError(
        await call('POST', `/v1/campaigns/${c.id}/cancel`, undefined, other.testKey),
        404,
        'resource_missing',
      );
      expectError(
        await call('GET', `/v1/campaigns/${c.id}`, undefined, other.testKey),
        404,
        'resource_missing',
      );
      expectError(
        await call('GET', `/v1/messages?campaign=${c.id}`, undefined, other.testKey),
        404,
        'resource_missing',
      );
      expectError(await call('GET', '/v1/campaigns/cmp_0000000000000000000000'), 404, 'resource_missing');
      expectError(
        await call('GET', '/v1/messages?campaign=cmp_0000000000000000000000'),
        404,
        'resource_missing',
      );
      expectError(await call('GET', '/v1/campaigns/nonsense'), 404, 'resource_missing');
      expectError(
        await call('GET', `/v1/messages?campaign=${c.id}&batch=bat_0000000000000000000000`),
        400,
        'parameter_invalid',
      );
    });

    it('refuses a send_at in the past or beyond 30 days', async () => {
      const g = await group('When');
      const past = await call(
        'POST',
        '/v1/campaigns',
        body({ send_at: '2020-01-01T00:00:00Z', audience: { groups: [g.id] } }),
      );
      expect(expectError(past, 400, 'invalid_send_at').param).toBe('send_at');
    });
  });

  describe('retry', () => {
    it('makes a new campaign to the recipients whose message ended FAILED or EXPIRED, with the same texts', async () => {
      const own = (await createMerchant(t)).testKey; // a sandbox number is one contact per wallet
      const g = await group('Retry', own);
      await contact({ phone_number: SANDBOX.delivered, fields: { first_name: 'D' }, groups: [g.id] }, own);
      await contact({ phone_number: SANDBOX.failed, fields: { first_name: 'F' }, groups: [g.id] }, own);
      await contact({ phone_number: SANDBOX.expired, fields: { first_name: 'E' }, groups: [g.id] }, own);
      const campaignBody = body({ message: 'Hi {{first_name}}', audience: { groups: [g.id] } });
      const first = ok(await call('POST', '/v1/campaigns', campaignBody, own));
      await settled(first.id, own);
      const retryKey = { 'Idempotency-Key': `retry-${first.id}` };
      const retry = ok(await call('POST', `/v1/campaigns/${first.id}/retry`, undefined, own, retryKey));
      expect(retry).toMatchObject({
        retry_of: first.id,
        recipients: 2,
        credits_reserved: 2,
        name: first.name,
      });
      expect((await messagesOf(retry.id, own)).map((x) => [x.to, x.message]).sort()).toEqual(
        [
          [SANDBOX.failed, 'Hi F'],
          [SANDBOX.expired, 'Hi E'],
        ].sort(),
      );
      const again = await call('POST', `/v1/campaigns/${first.id}/retry`, undefined, own, retryKey);
      expect(ok(again).id).toBe(retry.id);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const delivered = await group('All good');
      await contact({ phone_number: mtn(), groups: [delivered.id] });
      const fine = ok(await call('POST', '/v1/campaigns', body({ audience: { groups: [delivered.id] } })));
      await settled(fine.id);
      expectError(await call('POST', `/v1/campaigns/${fine.id}/retry`), 409, 'nothing_to_retry');
    });
  });

  describe('Idempotency-Key, the LIVE sender-ID rules and validation', () => {
    it('makes a campaign once per key; another body under the key is 422', async () => {
      const g = await group('Once');
      await contact({ phone_number: mtn(), groups: [g.id] });
      const key = { 'Idempotency-Key': `cmp-${serial++}` };
      const first = await call(
        'POST',
        '/v1/campaigns',
        body({ audience: { groups: [g.id] } }),
        m.testKey,
        key,
      );
      const second = await call(
        'POST',
        '/v1/campaigns',
        body({ audience: { groups: [g.id] } }),
        m.testKey,
        key,
      );
      expect(ok(second).id).toBe(ok(first).id);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expectError(
        await call(
          'POST',
          '/v1/campaigns',
          body({ name: 'Other', audience: { groups: [g.id] } }),
          m.testKey,
          key,
        ),
        422,
        'idempotency_key_reused',
      );
    });

    it('refuses a LIVE campaign whose sender ID is not approved, holding nothing', async () => {
      const g = await group('Live', m.liveKey);
      await contact({ phone_number: mtn(), groups: [g.id] }, m.liveKey);
      const refused = await call(
        'POST',
        '/v1/campaigns',
        body({ sender_id: 'Unknown', audience: { groups: [g.id] } }),
        m.liveKey,
      );
      expect(expectError(refused, 422, 'sender_id_not_approved').param).toBe('sender_id');
      expectError(
        await call(
          'POST',
          '/v1/campaigns/quote',
          body({ sender_id: 'Unknown', audience: { groups: [g.id] } }),
          m.liveKey,
        ),
        422,
        'sender_id_not_approved',
      );
      // A TEST campaign takes any valid sender ID.
      const tg = await group('Test any');
      await contact({ phone_number: mtn(), groups: [tg.id] });
      ok(
        await call(
          'POST',
          '/v1/campaigns/quote',
          body({ sender_id: 'Unknown', audience: { groups: [tg.id] } }),
        ),
      );
    });

    it('answers each bad field with its code and param', async () => {
      const g = await group('Fields');
      const refused = async (over: Record<string, unknown>, status: number, code: string) =>
        expectError(
          await call('POST', '/v1/campaigns', body({ audience: { groups: [g.id] }, ...over })),
          status,
          code,
        ).param;
      expect(await refused({ name: undefined }, 400, 'parameter_missing')).toBe('name');
      expect(await refused({ sender_id: 'x' }, 400, 'invalid_sender_id')).toBe('sender_id');
      expect(await refused({ type: 'bulk' }, 400, 'invalid_type')).toBe('type');
      expect(await refused({ message: undefined }, 400, 'parameter_missing')).toBe('message');
      expect(await refused({ audience: undefined }, 400, 'parameter_missing')).toBe('audience');
      expect(await refused({ audience: {} }, 400, 'parameter_missing')).toBe('audience');
      expect(await refused({ audience: { groups: 'grp_1' } }, 400, 'parameter_invalid')).toBe(
        'audience.groups',
      );
      expect(
        await refused(
          { audience: { groups: [g.id, 'grp_0000000000000000000000'] } },
          404,
          'resource_missing',
        ),
      ).toBe('audience.groups[1]');
      expect(
        await refused({ audience: { contacts: ['con_0000000000000000000000'] } }, 404, 'resource_missing'),
      ).toBe('audience.contacts[0]');
      // The body schema derived from the DTO: a field the route does not know, at any depth.
      expect(await refused({ recipients: 5 }, 400, 'parameter_unknown')).toBe('recipients');
      expect(await refused({ audience: { groups: [g.id], grups: [] } }, 400, 'parameter_unknown')).toBe(
        'audience.grups',
      );
      expectError(
        await call('GET', '/v1/campaigns?starting_after=cmp_0000000000000000000000'),
        404,
        'resource_missing',
      );
      expectError(await call('GET', '/v1/campaigns?limit=0'), 400, 'invalid_limit');
    });
  });

  it('lists newest first and pages', async () => {
    const other = await createMerchant(t);
    const g = await group('Pages', other.testKey);
    await contact({ phone_number: mtn(), groups: [g.id] }, other.testKey);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        ok(
          await call(
            'POST',
            '/v1/campaigns',
            body({ name: `C${i}`, audience: { groups: [g.id] } }),
            other.testKey,
          ),
        ).id,
      );
    const first = ok(await call('GET', '/v1/campaigns?limit=2', undefined, other.testKey));
    expect({ ids: first.data.map((c: { id: string }) => c.id), more: first.has_more }).toEqual({
      ids: [ids[2], ids[1]],
      more: true,
    });
    const next = ok(
      await call('GET', `/v1/campaigns?limit=2&starting_after=${ids[1]}`, undefined, other.testKey),
    );
    expect({ ids: next.data.map((c: { id: string }) => c.id), more: next.has_more }).toEqual({
      ids: [ids[0]],
      more: false,
    });
  });

  it('rebuilds the campaigns read model from the log to the same counts', async () => {
    const listed = async () => {
      const page = ok(await call('GET', '/v1/campaigns?limit=100'));
      return page.data.map((c: Record<string, unknown>) => ({
        id: c.id,
        status: c.status,
        counts: c.counts,
        by_carrier: c.by_carrier,
        credits_spent: c.credits_spent,
      }));
    };
    const before = await eventually(
      async () => {
        const all = await listed();
        return all.every((c: { status: string }) => c.status !== 'sending') ? all : undefined;
      },
      60_000,
      'every campaign to be done',
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await listed())}`);
    });
    await t.app.get(CommandBus).execute(new RebuildProjections());
    expect(await listed()).toEqual(before);
  });
});
