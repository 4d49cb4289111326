import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReusableCard } from '../../domain/checkout.events';
import {
  type AcceptedRefund,
  type ChargeCardInput,
  type PaymentProvider,
  type RefundInput,
  RefundRefusedError,
  type PaymentStatus,
  type StartedPayment,
  type StartPaymentInput,
  type VerifiedPayment,
  type WebhookResult,
} from '../../ports/payment-provider.port';

export interface PaystackPaymentProviderOptions {
  /** Paystack secret key (sk_test_… / sk_live_…). Sent only as a Bearer token; never logged. */
  readonly secretKey: string;
  /** Default https://api.paystack.co; tests point it at a local fake. Trailing slashes are ignored. */
  readonly baseUrl?: string;
  /** Per-request timeout in milliseconds (default 15000). */
  readonly timeoutMs?: number;
}

export const PAYSTACK_DEFAULT_BASE_URL = 'https://api.paystack.co';
const DEFAULT_TIMEOUT_MS = 15_000;
const SIGNATURE_HEADER = 'x-paystack-signature';

/**
 * Something went wrong talking to Paystack: transport error, timeout, HTTP error, non-JSON body,
 * `status: false` or an unexpected payload. The outcome is UNKNOWN: callers must retry later and
 * never treat it as a success or a failure of the payment. Not a DomainError on purpose.
 */
export class PaystackRequestError extends Error {
  constructor(
    message: string,
    /** HTTP status when Paystack answered, null for transport errors and timeouts. */
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'PaystackRequestError';
  }
}

/**
 * Paystack transaction statuses that are final and not a success (`reversed` = paid then refunded).
 * `abandoned` is NOT here: Paystack reports it for a transaction that was initialized but not paid
 * yet (the shopper may still come back and pay), so it maps to `pending`.
 */
const FAILED_STATUSES: ReadonlySet<string> = new Set(['failed', 'reversed']);

/** Maps Paystack's `data.status` of GET /transaction/verify onto the port's status. */
export function mapPaystackStatus(status: string): PaymentStatus {
  if (status === 'success') return 'succeeded';
  if (FAILED_STATUSES.has(status)) return 'failed';
  return 'pending'; // abandoned, ongoing, pending, processing, queued, send_otp, …: ask again later
}

/**
 * LIVE payments through Paystack's Standard checkout:
 * POST /transaction/initialize → redirect to `authorization_url`; GET /transaction/verify/:reference
 * server to server; POST /refund for money taken that a checkout will not credit; webhooks signed with `x-paystack-signature` = hex HMAC-SHA512(raw body, secret key).
 */
export class PaystackPaymentProvider implements PaymentProvider {
  readonly name = 'paystack';
  readonly #secretKey: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;

  constructor(options: PaystackPaymentProviderOptions) {
    if (typeof options.secretKey !== 'string' || options.secretKey.trim() === '') {
      throw new Error('PaystackPaymentProvider: secretKey is required');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new Error('PaystackPaymentProvider: timeoutMs must be a positive number');
    }
    this.#secretKey = options.secretKey;
    this.#baseUrl = (options.baseUrl ?? PAYSTACK_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#timeoutMs = timeoutMs;
  }

  /** Keeps the key out of console.log / util.inspect / JSON of this object. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, baseUrl: this.#baseUrl, timeoutMs: this.#timeoutMs };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PaystackPaymentProvider { baseUrl: '${this.#baseUrl}', timeoutMs: ${this.#timeoutMs} }`;
  }

  async startPayment(input: StartPaymentInput): Promise<StartedPayment> {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
      throw new Error(
        `Paystack initialize: amount must be a positive integer in minor units, got ${input.amount}`,
      );
    }
    const body = await this.#request('initialize', 'POST', '/transaction/initialize', {
      email: input.email,
      amount: input.amount, // already in subunits (pesewas)
      currency: input.currency,
      reference: input.reference,
      callback_url: input.callbackUrl,
      metadata: JSON.stringify({ checkout_id: input.checkoutId }), // documented as stringified JSON
    });
    const data = asRecord(body.data);
    const authorizationUrl = data?.authorization_url;
    if (typeof authorizationUrl !== 'string' || !/^https?:\/\//i.test(authorizationUrl)) {
      throw new PaystackRequestError('Paystack initialize: response has no valid data.authorization_url');
    }
    const reference = data?.reference;
    if (reference !== undefined && reference !== input.reference) {
      throw new PaystackRequestError('Paystack initialize: response reference differs from the one sent');
    }
    return { redirectUrl: authorizationUrl, reference: input.reference };
  }

  async verifyPayment(reference: string): Promise<VerifiedPayment> {
    if (typeof reference !== 'string' || reference === '') {
      throw new Error('Paystack verify: reference is required');
    }
    const body = await this.#request(
      'verify',
      'GET',
      `/transaction/verify/${encodeURIComponent(reference)}`,
      undefined,
    );
    return transactionResult('verify', body, reference);
  }

  /**
   * POST /transaction/charge_authorization: charges a saved card's reusable authorization, with
   * the same e-mail Paystack saved it for. The answer is read like a verify; `send_otp` and other
   * open statuses are `pending`. A timeout or transport error stays unknown (thrown).
   */
  async chargeCard(input: ChargeCardInput): Promise<VerifiedPayment> {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
      throw new Error(
        `Paystack charge: amount must be a positive integer in minor units, got ${input.amount}`,
      );
    }
    const body = await this.#request('charge', 'POST', '/transaction/charge_authorization', {
      authorization_code: input.card.authorizationCode,
      email: input.card.email,
      amount: input.amount,
      currency: input.currency,
      reference: input.reference,
      metadata: JSON.stringify({ checkout_id: input.checkoutId, origin: 'auto_topup' }),
    });
    return transactionResult('charge', body, input.reference);
  }

  /**
   * POST /refund `{ transaction: reference }` (no amount: Paystack refunds the whole transaction).
   * Paystack answering 4xx (say, "Transaction has been fully reversed") is a refusal no retry
   * changes; anything else (timeouts, 5xx, our key refused) stays unknown and is retried.
   */
  async refundPayment(input: RefundInput): Promise<AcceptedRefund> {
    let body: Record<string, unknown>;
    try {
      body = await this.#request('refund', 'POST', '/refund', {
        transaction: input.reference,
        merchant_note: input.reason.slice(0, 200),
      });
    } catch (error) {
      const status = error instanceof PaystackRequestError ? error.httpStatus : null;
      if (status !== null && status >= 400 && status < 500 && status !== 401 && status !== 429) {
        throw new RefundRefusedError((error as Error).message);
      }
      throw error;
    }
    const id = asRecord(body.data)?.id;
    if (typeof id !== 'number' && typeof id !== 'string') {
      throw new PaystackRequestError('Paystack refund: response has no data.id');
    }
    return { refundId: String(id) };
  }

  parseWebhook(
    rawBody: Buffer,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): WebhookResult {
    const provided = headerValue(headers, SIGNATURE_HEADER);
    if (!provided || !Buffer.isBuffer(rawBody)) return { accepted: false, reason: 'bad_signature' };

    const expected = createHmac('sha512', this.#secretKey).update(rawBody).digest();
    // Decoding hex stops at the first non-hex character, so also insist on exactly 128 hex digits.
    const normalized = provided.trim().toLowerCase();
    const given = /^[0-9a-f]{128}$/.test(normalized) ? Buffer.from(normalized, 'hex') : Buffer.alloc(0);
    // timingSafeEqual throws on a length mismatch: compare against a same-length buffer instead
    // so the work done does not depend on how wrong the signature is.
    const sameLength = given.length === expected.length;
    const equal = timingSafeEqual(expected, sameLength ? given : Buffer.alloc(expected.length));
    if (!sameLength || !equal) return { accepted: false, reason: 'bad_signature' };

    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      return { accepted: false, reason: 'malformed' };
    }
    const event = asRecord(parsed);
    if (!event || typeof event.event !== 'string' || event.event === '') {
      return { accepted: false, reason: 'malformed' };
    }
    const data = asRecord(event.data);
    const reference = typeof data?.reference === 'string' && data.reference !== '' ? data.reference : null;
    return { accepted: true, event: event.event, reference };
  }

  async #request(
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    payload: Record<string, unknown> | undefined,
  ): Promise<Record<string, unknown>> {
    const label = `Paystack ${operation}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.#baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.#secretKey}`,
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
        },
        body: payload ? JSON.stringify(payload) : undefined,
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (err) {
      const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
      if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
        throw new PaystackRequestError(`${label} timed out after ${this.#timeoutMs} ms`);
      }
      const detail = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
      throw new PaystackRequestError(`${label} request failed: ${this.#redact(String(detail))}`);
    }

    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new PaystackRequestError(
        `${label}: HTTP ${response.status} with a non-JSON body`,
        response.status,
      );
    }
    const record = asRecord(body);
    const message = typeof record?.message === 'string' ? this.#redact(record.message).slice(0, 200) : '';
    if (!response.ok) {
      throw new PaystackRequestError(
        `${label}: HTTP ${response.status}${message ? ` (${message})` : ''}`,
        response.status,
      );
    }
    if (!record || record.status !== true) {
      throw new PaystackRequestError(
        `${label}: status false${message ? ` (${message})` : ''}`,
        response.status,
      );
    }
    return record;
  }

  /** Belt and braces: no text from elsewhere ever carries the key into a message or log. */
  #redact(text: string): string {
    return text.split(this.#secretKey).join('[redacted]');
  }
}

/** A transaction object (verify, charge) as the port's answer, checked field by field. */
function transactionResult(
  operation: string,
  body: Record<string, unknown>,
  reference: string,
): VerifiedPayment {
  const label = `Paystack ${operation}`;
  const data = asRecord(body.data);
  if (!data) throw new PaystackRequestError(`${label}: response has no data object`);
  if (data.reference !== reference) {
    throw new PaystackRequestError(`${label}: response concerns a different reference`);
  }
  if (typeof data.status !== 'string') {
    throw new PaystackRequestError(`${label}: response has no data.status`);
  }
  if (typeof data.amount !== 'number' || !Number.isSafeInteger(data.amount) || data.amount < 0) {
    throw new PaystackRequestError(`${label}: response has no valid integer data.amount`);
  }
  if (typeof data.currency !== 'string' || data.currency === '') {
    throw new PaystackRequestError(`${label}: response has no data.currency`);
  }
  const status = mapPaystackStatus(data.status);
  const gateway = typeof data.gateway_response === 'string' ? data.gateway_response.trim() : '';
  const card = status === 'succeeded' ? reusableCard(data) : null;
  return {
    reference,
    status,
    amount: data.amount,
    currency: data.currency.toUpperCase(),
    reason: status === 'failed' ? (gateway ? `${data.status}: ${gateway}` : data.status) : null,
    ...(card ? { card } : {}),
  };
}

/** Paystack's `authorization` when it says it may be charged again, with the customer's e-mail. */
function reusableCard(data: Record<string, unknown>): ReusableCard | null {
  const auth = asRecord(data.authorization);
  const email = asRecord(data.customer)?.email;
  if (
    !auth ||
    auth.reusable !== true ||
    typeof auth.authorization_code !== 'string' ||
    typeof email !== 'string'
  ) {
    return null;
  }
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  return {
    authorizationCode: auth.authorization_code,
    brand: text(auth.card_type) || text(auth.brand) || text(auth.channel) || 'card',
    last4: text(auth.last4),
    expMonth: text(auth.exp_month),
    expYear: text(auth.exp_year),
    email,
  };
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function headerValue(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | null {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() !== name) continue;
    const v = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
    return typeof v === 'string' && v !== '' ? v : null;
  }
  return null;
}
