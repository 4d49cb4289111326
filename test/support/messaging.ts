import type { Merchant } from './merchant';
import { eventually, TestApp } from './test-app';

export const SANDBOX = {
  delivered: '+233200000001',
  failed: '+233200000002',
  expired: '+233200000003',
  rejected: '+233200000004',
} as const;

export const sendBody = (overrides: Record<string, unknown> = {}) => ({
  to: '+233241234567',
  sender_id: 'MyShop',
  message: 'Hello from the test suite',
  type: 'transactional',
  ...overrides,
});

export async function send(
  t: TestApp,
  key: string,
  overrides: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  return t.request('POST', '/v1/messages', { key, body: sendBody(overrides), headers });
}

/** A batch send of one shared message to these numbers. */
export async function sendBatch(t: TestApp, key: string, to: readonly string[]) {
  const messages = to.map((number) => ({ to: number }));
  return t.request('POST', '/v1/messages/batch', {
    key,
    body: { sender_id: 'MyShop', type: 'transactional', message: 'Our sale starts today', messages },
  });
}

export async function smsLeft(t: TestApp, key: string): Promise<number> {
  const billing = await t.request('GET', '/v1/billing', { key });
  return billing.body.sms_left;
}

const FINAL = new Set(['DELIVERED', 'FAILED', 'EXPIRED']);

/** Polls GET /v1/messages/:id until the message is terminal. */
export async function finalState(t: TestApp, key: string, id: string, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const r = await t.request('GET', `/v1/messages/${id}`, { key });
      return r.status === 200 && FINAL.has(r.body.status) ? r.body : undefined;
    },
    timeoutMs,
    `message ${id} to reach a final status`,
  );
}

/** Polls until the wallet has no open reservation and answers its sms_left. */
export async function settledSmsLeft(t: TestApp, m: Merchant, expected: number, timeoutMs = 30_000) {
  return eventually(
    async () => ((await smsLeft(t, m.testKey)) === expected ? expected : undefined),
    timeoutMs,
    `sms_left to be ${expected}`,
  );
}
