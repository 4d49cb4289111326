import { expectError, startTestApp, TestApp } from '../support/test-app';

describe('HTTP conventions every endpoint shares (API.md)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves /health and /ready with a request id', async () => {
    const health = await t.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]{22}$/);
    expect((await t.request('GET', '/ready')).body).toMatchObject({ status: 'ready' });
  });

  it('answers unknown routes with the error shape, not an HTML page', async () => {
    expectError(await t.request('GET', '/v1/nothing-here'), 404, 'resource_missing');
    expectError(await t.request('DELETE', '/'), 404);
  });

  it('refuses malformed JSON with 400 invalid_json', async () => {
    const response = await t.request('POST', '/v1/messages', { body: '{"to": ' });
    expect(expectError(response, 400, 'invalid_json').type).toBe('invalid_request_error');
  });

  it('refuses bodies over 16 KiB with 413', async () => {
    const response = await t.request('POST', '/v1/messages', {
      body: JSON.stringify({ message: 'x'.repeat(17 * 1024) }),
    });
    expectError(response, 413, 'body_too_large');
  });

  it('refuses non-JSON bodies with 415', async () => {
    const response = await t.request('POST', '/v1/messages', {
      body: 'to=+233',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(response, 415, 'unsupported_media_type');
    const form = await t.request('POST', '/v1/messages', {
      body: 'to=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(form, 415, 'unsupported_media_type');
  });

  it('refuses prototype-poisoning JSON', async () => {
    const response = await t.request('POST', '/v1/messages', { body: '{"__proto__": {"admin": true}}' });
    expectError(response, 400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('publishes the OpenAPI document and its UI', async () => {
    const spec = await t.request('GET', '/openapi.json');
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toMatch(/^3\./);
    const ui = await t.request('GET', '/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});
