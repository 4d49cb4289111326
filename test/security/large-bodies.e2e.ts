import { visitSignIn } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { RawRequest, RawResponse } from '../support/raw-http';
import { expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 28, item 1: what one request can make the server do, whatever its body holds. The body's
 * shape is checked (a JSON schema derived from the route's DTO, compiled once) before anything
 * walks it key by key; and a route that takes a body over 16 KiB authenticates before reading it.
 */
describe('large and hostile bodies', () => {
  let t: TestApp;
  let m: Merchant;
  const MiB = 1024 * 1024;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_KEY_RPS: '1', RATE_LIMIT_PER_KEY_BURST: '50' } });
    m = await createMerchant(t);
  });
  afterAll(() => t?.close());

  /** Every hand-written request of a test, dropped after it (one still sending keeps the app from closing). */
  const opened: RawRequest[] = [];
  const raw = (head: string) => {
    const request = new RawRequest(t.baseUrl, head);
    opened.push(request);
    return request;
  };
  afterEach(() => opened.splice(0).forEach((request) => request.destroy()));

  const shared = { sender_id: 'MyShop', type: 'transactional', message: 'Our sale starts today' };

  describe('the shape of a body is checked before any per-key walk', () => {
    it('refuses a batch item with hundreds of thousands of keys while it arrives, naming the item', async () => {
      const item: Record<string, number> = {};
      for (let i = 0; i < 150_000; i++) item[`k${i}`] = 0; // about 2 MiB
      const r = await t.request('POST', '/v1/messages/batch', {
        key: m.testKey,
        body: { ...shared, messages: [{ to: '+233241234567' }, item] },
      });
      expect(expectError(r, 400, 'parameter_invalid')).toMatchObject({
        param: 'messages[1]',
        message: 'messages[1] holds more entries than this request takes (at most 2000)',
      });
      // Within those bounds, the route's shape names the first key it does not take.
      const few = await t.request('POST', '/v1/messages/batch', {
        key: m.testKey,
        body: { ...shared, messages: [{ to: '+233241234567' }, { k0: 0, k1: 1, k2: 2 }] },
      });
      expect(expectError(few, 400, 'parameter_unknown')).toMatchObject({
        param: 'messages[1].k0',
        message: 'Unknown parameter messages[1].k0: messages[1] takes to, message',
      });
    });

    it('answers a body nested a million levels deep with a 400, never a 500', async () => {
      const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const inItem = await t.request('POST', '/v1/messages/batch', {
        key: m.testKey,
        body: `{"sender_id":"MyShop","type":"transactional","message":"x","messages":[{"to":${deep(1_000_000)}}]}`,
      });
      expect(expectError(inItem, 400, 'parameter_invalid')).toMatchObject({
        param: 'messages[0].to[0]',
        message: 'messages[0].to[0] nests deeper than this request takes (at most 4 levels)',
      });
      const asItem = await t.request('POST', '/v1/messages/batch', {
        key: m.testKey,
        body: `{"sender_id":"MyShop","type":"transactional","message":"x","messages":[${deep(1_000_000)}]}`,
      });
      expect(expectError(asItem, 400, 'parameter_invalid').param).toBe('messages[0][0][0]');
      const single = await t.request('POST', '/v1/messages', {
        key: m.testKey,
        body: `{"to":"+233241234567","sender_id":"MyShop","message":"hi","type":${deep(7000)}}`,
      });
      expect(expectError(single, 400, 'parameter_invalid').param).toBe('type');
    });

    it('bounds the keys of a console form too (its DTO allows a few it does not name)', async () => {
      const visitor = await visitSignIn(t.baseUrl);
      const form = new URLSearchParams({ _csrf: visitor.csrf });
      for (let i = 0; i < 1500; i++) form.append(`f${i}`, 'x'); // within 16 KiB
      const r = await fetch(`${t.baseUrl}/console/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor.cookie },
        body: form.toString(),
        redirect: 'manual',
      });
      expect(r.status).toBe(400);
      expect(await r.text()).toContain('more fields than it takes');
    });
  });

  describe('a large body is read only after authentication', () => {
    const batchHead = (authorization?: string, length = 2 * MiB) =>
      [
        'POST /v1/messages/batch HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        `Content-Length: ${length}`,
        ...(authorization ? [`Authorization: ${authorization}`] : []),
      ].join('\n');

    it.each([
      ['no key', undefined],
      ['a malformed key', 'Bearer nope'],
      ['an unknown key', `Bearer sms_test_${'x'.repeat(40)}`],
    ])(
      'with %s: 401 before a byte of the 2 MiB body is sent, and the connection is closed',
      async (_, authorization) => {
        const request = raw(batchHead(authorization));
        const answer = await request.response();
        expect(answer.status).toBe(401);
        expect(JSON.parse(answer.body).error.code).toBe('invalid_api_key');
        expect(answer.headers.connection).toBe('close');
        await request.closedWithin();
      },
    );

    it('over the key rate limit: 429 before the body too (the request was counted, the body never read)', async () => {
      const limited = await createMerchant(t);
      // The key refills one request a second: spend its burst (50), then ask at once. Should a token
      // come back in between (a slow machine), the request passes and waits for its body: drop it
      // and spend again.
      let answer: RawResponse | null = null;
      for (let attempt = 0; attempt < 5 && answer === null; attempt++) {
        while ((await t.request('GET', '/v1/billing', { key: limited.testKey })).status !== 429);
        const request = raw(batchHead(`Bearer ${limited.testKey}`));
        answer = await request.response(3000).catch(() => null);
        request.destroy();
      }
      expect(answer?.status).toBe(429);
      expect(Number(answer?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answer?.headers.connection).toBe('close');
    });

    it('with a valid key, the body is read and answered as usual', async () => {
      const body = JSON.stringify({ ...shared, messages: [{ to: '+233241234567' }] });
      const request = raw(batchHead(`Bearer ${m.testKey}`, Buffer.byteLength(body)));
      request.send(body);
      const answer = await request.response();
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ object: 'batch', accepted: 1 });
      request.destroy();
    });

    it("the console's Send to many confirm and upload: signed out, sent to sign in before the body", async () => {
      for (const [path, type, length] of [
        ['/console/send-many', 'application/x-www-form-urlencoded', 6 * MiB],
        ['/console/send-many/preview', 'multipart/form-data; boundary=x', 2 * MiB],
      ] as const) {
        const request = new RawRequest(
          t.baseUrl,
          `POST ${path} HTTP/1.1\nHost: 127.0.0.1\nContent-Type: ${type}\nContent-Length: ${length}\nCookie: sms_console_session=forged`,
        );
        const answer = await request.response();
        expect({ path, status: answer.status, location: answer.headers.location }).toEqual({
          path,
          status: 303,
          location: '/console/signin',
        });
        await request.closedWithin();
      }
    });

    it('a multipart form to any other console route is cut at 16 KiB and refused, never read to its end', async () => {
      const boundary = 'xyz';
      const request = raw(
        `POST /console/signin HTTP/1.1\nHost: 127.0.0.1\nContent-Type: multipart/form-data; boundary=${boundary}\nContent-Length: ${2 * MiB}`,
      );
      request.send(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      );
      request.send('x'.repeat(32 * 1024));
      const answer = await request.response();
      expect(answer.status).toBe(403);
      expect(answer.headers.connection).toBe('close');
      await request.closedWithin();
    });
  });
});
