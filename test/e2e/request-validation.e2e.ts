import { postSignIn, visitSignIn } from '../support/console-form';
import { createMerchant, Merchant } from '../support/merchant';
import { expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * Every request body, query and console form goes through one ValidationPipe with a DTO: a bad
 * one is refused before any use case runs, in API.md's shape with `param` naming the field.
 */
describe('request DTOs and the one ValidationPipe', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp({ env: { TEST_DLR_DELAY_MS: '0' } });
    m = await createMerchant(t);
  });
  afterAll(() => t.close());

  const send = (body: unknown) => t.request('POST', '/v1/messages', { key: m.testKey, body });
  const valid = { to: '+233241234567', sender_id: 'MyShop', message: 'Hello', type: 'transactional' };

  it('send: missing, mistyped and out-of-range fields name their field', async () => {
    expect(expectError(await send({ ...valid, sender_id: undefined }), 400, 'parameter_missing').param).toBe(
      'sender_id',
    );
    expect(expectError(await send({ ...valid, message: 7 }), 400, 'parameter_invalid').param).toBe('message');
    expect(expectError(await send({ ...valid, type: 'marketing' }), 400, 'invalid_type').param).toBe('type');
    expect(expectError(await send([valid]), 400, 'invalid_request').param).toBeUndefined();
    // The DTO checks the wire shape; the domain still owns what a field must mean.
    expect(expectError(await send({ ...valid, to: '+23324' }), 400, 'invalid_phone_number').param).toBe('to');
  });

  it('a refused body reserves nothing', async () => {
    await send({ ...valid, type: 42 });
    const billing = await t.request('GET', '/v1/billing', { key: m.testKey });
    expect(billing.body.sms_left).toBe(100);
  });

  it('queries: limit and cursors are checked by their DTOs', async () => {
    for (const limit of ['0', '101', 'ten', '1.5']) {
      const response = await t.request('GET', `/v1/messages?limit=${limit}`, { key: m.testKey });
      expect(expectError(response, 400, 'invalid_limit').param).toBe('limit');
    }
    const events = await t.request('GET', '/v1/events?after=msg_123', { key: m.testKey });
    expect(expectError(events, 400, 'parameter_invalid').param).toBe('after');
  });

  it('webhook endpoints: events must be a non-empty list', async () => {
    const create = (body: unknown) => t.request('POST', '/v1/webhook_endpoints', { key: m.testKey, body });
    expect(expectError(await create({ url: 'https://example.com/h' }), 400, 'parameter_missing').param).toBe(
      'events',
    );
    expect(
      expectError(await create({ url: 'https://example.com/h', events: [] }), 400, 'parameter_invalid').param,
    ).toBe('events');
    expect(
      expectError(
        await create({ url: 'https://example.com/h', events: ['sms.sent'] }),
        400,
        'invalid_event_type',
      ).param,
    ).toBe('events');
  });

  it('console forms: an over-long field is refused with a 400 page before the use case runs', async () => {
    const visitor = await visitSignIn(t.baseUrl);
    const refused = await postSignIn(t.baseUrl, visitor, `${'a'.repeat(300)}@example.com`, 'whatever it is');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/text\/html/);
    // A well-formed attempt is still judged by the use case (wrong password: the form again).
    const wrong = await postSignIn(t.baseUrl, visitor, m.email, 'not the password');
    expect(wrong.status).toBe(200);
    expect(wrong.html).toContain('do not match');
  });
});
