import { createMerchant, Merchant } from '../support/merchant';
import { sendBody } from '../support/messaging';
import { expectError, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 29, items 1 and 2: a body field a route does not know is `400 parameter_unknown` on every
 * JSON route of the API (batch items too), with "did you mean" when one is close; and the
 * refusals a new user meets first say how to fix them.
 */
describe('strict request bodies and errors that say the fix', () => {
  let t: TestApp;
  let m: Merchant;

  beforeAll(async () => {
    t = await startTestApp();
    m = await createMerchant(t);
  });
  afterAll(() => t?.close());

  interface Operation {
    readonly method: string;
    readonly path: string;
    readonly schema: string;
  }

  /** Every operation of the OpenAPI document with a JSON request body, and its schema's name. */
  async function jsonBodyOperations(): Promise<{
    operations: Operation[];
    schemas: Record<string, unknown>;
  }> {
    const document = (await t.request('GET', '/openapi.json')).body;
    const operations: Operation[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>))
      for (const [method, operation] of Object.entries(item)) {
        const ref = (
          operation as { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }
        ).requestBody?.content?.['application/json']?.schema?.$ref;
        if (ref)
          operations.push({ method: method.toUpperCase(), path, schema: ref.split('/').pop() as string });
      }
    return { operations, schemas: document.components.schemas };
  }

  it('refuses a field a route does not know on every JSON route of the API, naming it', async () => {
    const { operations } = await jsonBodyOperations();
    expect(operations.length).toBeGreaterThanOrEqual(11);
    const answers = await Promise.all(
      operations.map(async ({ method, path }) => {
        const r = await t.request(method, path.replace(/\{[^}]+\}/g, 'x'), {
          key: m.testKey,
          body: { callback_urll: 'https://shop.example/hook' },
        });
        return {
          route: `${method} ${path}`,
          status: r.status,
          code: r.body?.error?.code,
          param: r.body?.error?.param,
        };
      }),
    );
    for (const answer of answers)
      expect(answer).toEqual({
        route: answer.route,
        status: 400,
        code: 'parameter_unknown',
        param: 'callback_urll',
      });
  });

  it('says so in the OpenAPI document: additionalProperties false on every request body schema, nested ones too', async () => {
    const { operations, schemas } = await jsonBodyOperations();
    for (const name of new Set([...operations.map((o) => o.schema), 'BatchItemDto']))
      expect({
        name,
        additionalProperties: (schemas[name] as { additionalProperties?: unknown }).additionalProperties,
      }).toEqual({
        name,
        additionalProperties: false,
      });
  });

  it('suggests the field meant: sendAt is not send_at, and the message is not sent now instead of later', async () => {
    const r = await t.request('POST', '/v1/messages', {
      key: m.testKey,
      body: { ...sendBody(), sendAt: '2030-01-01T09:00:00Z' },
    });
    expect(expectError(r, 400, 'parameter_unknown')).toMatchObject({
      param: 'sendAt',
      message: 'Unknown parameter sendAt: did you mean send_at?',
    });
    const listed = await t.request('GET', '/v1/messages', { key: m.testKey });
    expect(listed.body.data).toEqual([]);

    const unknown = await t.request('POST', '/v1/messages', {
      key: m.testKey,
      body: { ...sendBody(), callback_url: 'x' },
    });
    expect(expectError(unknown, 400, 'parameter_unknown').message).toBe(
      'Unknown parameter callback_url: the body takes to, sender_id, message, type, send_at',
    );
  });

  it('names a batch item’s unknown field by its place in the batch', async () => {
    const r = await t.request('POST', '/v1/messages/batch', {
      key: m.testKey,
      body: {
        sender_id: 'MyShop',
        type: 'transactional',
        messages: [{ to: '+233241234567' }, { to: '+233241234567' }, { to: '+233241234567', mesage: 'Hi' }],
      },
    });
    expect(expectError(r, 400, 'parameter_unknown')).toMatchObject({
      param: 'messages[2].mesage',
      message: 'Unknown parameter messages[2].mesage: did you mean message?',
    });
  });

  it('a missing or wrong type lists the allowed values, on single sends and batches alike', async () => {
    const { type: _, ...untyped } = sendBody();
    expect(
      expectError(
        await t.request('POST', '/v1/messages', { key: m.testKey, body: untyped }),
        400,
        'parameter_missing',
      ),
    ).toMatchObject({
      param: 'type',
      message: 'type is required: transactional or promotional',
    });
    for (const type of ['marketing', 7]) {
      const r = await t.request('POST', '/v1/messages', {
        key: m.testKey,
        body: sendBody({ type } as never),
      });
      expect(r.body.error).toMatchObject({
        param: 'type',
        message: 'type must be transactional or promotional',
      });
    }
    const batch = await t.request('POST', '/v1/messages/batch', {
      key: m.testKey,
      body: { sender_id: 'MyShop', message: 'Hi', messages: [{ to: '+233241234567' }] },
    });
    expect(expectError(batch, 400, 'parameter_missing').message).toBe(
      'type is required: transactional or promotional',
    );
  });

  it('a number in a country without a route says which are served and how an operator adds one', async () => {
    const r = await t.request('POST', '/v1/messages', {
      key: m.testKey,
      body: sendBody({ to: '+2348031234567' }),
    });
    expect(expectError(r, 400, 'unsupported_destination').message).toBe(
      'No route sends to +2348031234567 (Nigeria). This service sends to +233 (Ghana). An operator adds a ' +
        'destination with `npm run cli -- routes:add --prefix +234 --carrier <NAME>`, which takes effect without a restart',
    );
  });

  it('malformed JSON says where it broke, in the error shape', async () => {
    const r = await t.request('POST', '/v1/messages', {
      key: m.testKey,
      body: '{\n  "to": "+233241234567",\n  "sender_id": "MyShop"\n  "message": "Hi"\n}',
    });
    expect(expectError(r, 400, 'invalid_json').message).toBe(
      "The request body is not valid JSON: expected ',' or '}' at line 4, column 3",
    );
    const cut = await t.request('POST', '/v1/messages', { key: m.testKey, body: '{"to": "+2332' });
    expect(cut.body.error.message).toBe(
      'The request body is not valid JSON: a string is not closed at line 1, column 14',
    );
  });
});
