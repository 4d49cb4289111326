import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Paystack's documented API (POST /transaction/initialize,
 * GET /transaction/verify/:reference, POST /refund), listening on 127.0.0.1 on a free port. Test support only.
 *
 * Behaviours:
 * - `success`           initialize and verify succeed; verify echoes the initialized amount/currency
 * - `verify-failed`     verify answers data.status 'failed' (gateway_response 'Declined')
 * - `verify-abandoned`  verify answers data.status 'abandoned'
 * - `verify-pending`    verify answers data.status 'ongoing'
 * - `amount-mismatch`   verify answers success but with `mismatchAmount` (default: initialized amount - 1)
 * - `currency-mismatch` verify answers success but in `mismatchCurrency` (default 'NGN')
 * - `http-500`          every request gets HTTP 500; the JSON body echoes the Authorization header
 *                       (so a test can prove the adapter never puts the key in its errors)
 * - `status-false`      HTTP 200 with `{ status: false, message }`
 * - `non-json`          HTTP 200 with an HTML body
 * - `slow`              waits `slowMs` (default 10000) before answering normally (a charge is
 *                       made only then: a caller that gave up earlier finds it by verifying)
 * - `charge-declined`   POST /transaction/charge_authorization answers data.status 'failed'
 *
 * A verified or charged successful transaction carries a reusable card `authorization`, which
 * POST /transaction/charge_authorization accepts (GET /transaction/verify then reports the charge).
 */
export type FakePaystackBehaviour =
  | 'success'
  | 'verify-failed'
  | 'verify-abandoned'
  | 'verify-pending'
  | 'amount-mismatch'
  | 'currency-mismatch'
  | 'http-500'
  | 'status-false'
  | 'non-json'
  | 'slow'
  | 'charge-declined';

export interface RecordedRequest {
  readonly method: string;
  /** Path and query as received, e.g. /transaction/verify/ref_1 */
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  /** Parsed JSON body, undefined when there was none or it was not JSON. */
  readonly body: unknown;
  readonly rawBody: string;
}

export interface FakePaystackServerOptions {
  /** When set, requests without `Authorization: Bearer <secretKey>` get 401 like Paystack. */
  readonly secretKey?: string;
  readonly behaviour?: FakePaystackBehaviour;
  readonly slowMs?: number;
}

interface Transaction {
  readonly reference: string;
  readonly amount: number;
  readonly currency: string;
  readonly email: string;
  /** A charge of a saved card is decided at once; a checkout's transaction by the behaviour. */
  readonly charged?: 'success' | 'failed';
}

/** The reusable card Paystack reports for a successful payment (trimmed). */
export function fakeAuthorization(reference: string) {
  return {
    authorization_code: `AUTH_${reference.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}`,
    bin: '408408',
    last4: '4081',
    exp_month: '12',
    exp_year: '2030',
    channel: 'card',
    card_type: 'visa ',
    bank: 'TEST BANK',
    reusable: true,
  };
}

export class FakePaystackServer {
  readonly requests: RecordedRequest[] = [];
  behaviour: FakePaystackBehaviour;
  slowMs: number;
  mismatchAmount: number | null = null;
  mismatchCurrency = 'NGN';
  /** Refunds made, by transaction reference (a second refund of one is refused, like Paystack). */
  readonly refunds = new Map<string, { id: number; amount: number; currency: string }>();

  readonly #secretKey: string | undefined;
  readonly #transactions = new Map<string, Transaction>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #server: Server | null = null;
  #baseUrl: string | null = null;

  constructor(options: FakePaystackServerOptions = {}) {
    this.#secretKey = options.secretKey;
    this.behaviour = options.behaviour ?? 'success';
    this.slowMs = options.slowMs ?? 10_000;
  }

  /** Starts listening; resolves to the base URL, e.g. http://127.0.0.1:54321 */
  async start(): Promise<string> {
    if (this.#baseUrl) return this.#baseUrl;
    const server = createServer((req, res) => this.#handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    this.#baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.#baseUrl;
  }

  get baseUrl(): string {
    if (!this.#baseUrl) throw new Error('FakePaystackServer not started');
    return this.#baseUrl;
  }

  /** Back to `success`, no recorded requests or transactions. */
  reset(): void {
    this.behaviour = 'success';
    this.mismatchAmount = null;
    this.mismatchCurrency = 'NGN';
    this.requests.length = 0;
    this.refunds.clear();
    this.charges.length = 0;
    this.#transactions.clear();
  }

  /** Seeds a transaction as if it had been initialized (for verify-only tests). */
  addTransaction(tx: { reference: string; amount: number; currency?: string; email?: string }): void {
    this.#transactions.set(tx.reference, {
      reference: tx.reference,
      amount: tx.amount,
      currency: tx.currency ?? 'GHS',
      email: tx.email ?? 'merchant@example.com',
    });
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    const server = this.#server;
    this.#server = null;
    this.#baseUrl = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      this.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
        rawBody,
      });
      if (this.behaviour === 'slow') {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          // Acted on even when the caller gave up waiting: Paystack does not know it did.
          this.#respond(req, res, body);
        }, this.slowMs);
        this.#timers.add(timer);
        return;
      }
      this.#respond(req, res, body);
    });
  }

  #respond(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const send = (status: number, payload: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(payload));
    };
    if (this.behaviour === 'http-500') {
      return send(500, {
        status: false,
        message: `Internal server error while handling ${req.headers.authorization ?? 'no auth'}`,
      });
    }
    if (this.behaviour === 'non-json') {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Bad gateway</body></html>');
      return;
    }
    if (this.behaviour === 'status-false') {
      return send(200, { status: false, message: 'Something is not right' });
    }
    if (this.#secretKey !== undefined && req.headers.authorization !== `Bearer ${this.#secretKey}`) {
      return send(401, { status: false, message: 'Invalid key' });
    }

    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/transaction/initialize') {
      return this.#initialize(body, send);
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && verify) {
      return this.#verify(decodeURIComponent(verify[1]), send);
    }
    if (req.method === 'POST' && url.pathname === '/refund') return this.#refund(body, send);
    if (req.method === 'POST' && url.pathname === '/transaction/charge_authorization') {
      return this.#chargeAuthorization(body, send);
    }
    return send(404, { status: false, message: 'Not found' });
  }

  #refund(body: unknown, send: (status: number, payload: unknown) => void): void {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const tx = typeof b.transaction === 'string' ? this.#transactions.get(b.transaction) : undefined;
    if (!tx) return send(404, { status: false, message: 'Transaction not found' });
    if (this.refunds.has(tx.reference)) {
      return send(400, { status: false, message: 'Transaction has been fully reversed' });
    }
    const refund = { id: 3018284 + this.refunds.size, amount: tx.amount, currency: tx.currency };
    this.refunds.set(tx.reference, refund);
    send(200, {
      status: true,
      message: 'Refund has been queued for processing',
      data: {
        id: refund.id,
        transaction: { reference: tx.reference, amount: tx.amount },
        amount: refund.amount,
        currency: refund.currency,
        status: 'pending',
      },
    });
  }

  /** Charges made of saved cards, by reference. */
  readonly charges: { reference: string; amount: number; authorizationCode: string; status: string }[] = [];

  #chargeAuthorization(body: unknown, send: (status: number, payload: unknown) => void): void {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof b.authorization_code !== 'string' || !b.authorization_code.startsWith('AUTH_')) {
      return send(400, { status: false, message: 'Invalid authorization code' });
    }
    if (
      typeof b.email !== 'string' ||
      typeof b.amount !== 'number' ||
      !Number.isInteger(b.amount) ||
      b.amount <= 0
    ) {
      return send(400, { status: false, message: 'Invalid email or amount' });
    }
    const reference =
      typeof b.reference === 'string' && b.reference
        ? b.reference
        : `T${Math.random().toString(36).slice(2)}`;
    if (this.#transactions.has(reference)) {
      return send(400, { status: false, message: 'Duplicate Transaction Reference' });
    }
    const charged = this.behaviour === 'charge-declined' ? 'failed' : 'success';
    const currency = typeof b.currency === 'string' ? b.currency : 'NGN';
    this.#transactions.set(reference, { reference, amount: b.amount, currency, email: b.email, charged });
    this.charges.push({
      reference,
      amount: b.amount,
      authorizationCode: b.authorization_code,
      status: charged,
    });
    send(200, {
      status: true,
      message: 'Charge attempted',
      data: {
        amount: b.amount,
        currency,
        transaction_date: new Date().toISOString(),
        status: charged,
        reference,
        domain: 'test',
        gateway_response: charged === 'success' ? 'Approved' : 'Declined',
        channel: 'card',
        authorization: fakeAuthorization(reference),
        customer: { email: b.email },
      },
    });
  }

  #initialize(body: unknown, send: (status: number, payload: unknown) => void): void {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const amount = typeof b.amount === 'string' ? Number(b.amount) : b.amount;
    if (
      typeof b.email !== 'string' ||
      typeof amount !== 'number' ||
      !Number.isInteger(amount) ||
      amount <= 0
    ) {
      return send(400, { status: false, message: 'Invalid email or amount' });
    }
    const reference =
      typeof b.reference === 'string' && b.reference
        ? b.reference
        : `T${Math.random().toString(36).slice(2)}`;
    if (this.#transactions.has(reference)) {
      return send(400, { status: false, message: 'Duplicate Transaction Reference' });
    }
    const currency = typeof b.currency === 'string' ? b.currency : 'NGN';
    this.#transactions.set(reference, { reference, amount, currency, email: b.email });
    const accessCode = `ac_${reference.replace(/[^A-Za-z0-9]/g, '').slice(0, 16)}`;
    send(200, {
      status: true,
      message: 'Authorization URL created',
      data: {
        authorization_url: `https://checkout.paystack.com/${accessCode}`,
        access_code: accessCode,
        reference,
      },
    });
  }

  #verify(reference: string, send: (status: number, payload: unknown) => void): void {
    const tx = this.#transactions.get(reference);
    if (!tx) return send(400, { status: false, message: 'Transaction reference not found' });
    let status = 'success';
    let gateway = 'Successful';
    let amount = tx.amount;
    let currency = tx.currency;
    switch (tx.charged ? 'charged' : this.behaviour) {
      case 'charged':
        status = tx.charged!;
        gateway = tx.charged === 'success' ? 'Approved' : 'Declined';
        break;
      case 'verify-failed':
        status = 'failed';
        gateway = 'Declined';
        break;
      case 'verify-abandoned':
        status = 'abandoned';
        gateway = 'The transaction was not completed';
        break;
      case 'verify-pending':
        status = 'ongoing';
        gateway = 'Awaiting customer';
        break;
      case 'amount-mismatch':
        amount = this.mismatchAmount ?? tx.amount - 1;
        break;
      case 'currency-mismatch':
        currency = this.mismatchCurrency;
        break;
    }
    send(200, {
      status: true,
      message: 'Verification successful',
      data: {
        id: 4099260516,
        domain: 'test',
        status,
        reference: tx.reference,
        amount,
        message: null,
        gateway_response: gateway,
        paid_at: status === 'success' ? new Date().toISOString() : null,
        created_at: new Date().toISOString(),
        channel: tx.charged ? 'card' : 'mobile_money',
        currency,
        customer: { email: tx.email },
        ...(status === 'success' ? { authorization: fakeAuthorization(tx.reference) } : {}),
      },
    });
  }
}

/**
 * Builds a webhook delivery exactly as Paystack signs it: the raw JSON bytes and
 * `x-paystack-signature` = hex HMAC-SHA512(raw body, secret key).
 */
export function signedPaystackWebhook(
  secretKey: string,
  payload: unknown,
): { rawBody: Buffer; signature: string; headers: Record<string, string> } {
  const rawBody = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload), 'utf8');
  const signature = signPaystackBody(secretKey, rawBody);
  return {
    rawBody,
    signature,
    headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
  };
}

export function signPaystackBody(secretKey: string, rawBody: Buffer | string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

/** A `charge.success` event body as Paystack sends it (trimmed). */
export function chargeSuccessEvent(
  reference: string,
  amount: number,
  currency = 'GHS',
): Record<string, unknown> {
  return {
    event: 'charge.success',
    data: {
      id: 302961,
      domain: 'live',
      status: 'success',
      reference,
      amount,
      currency,
      gateway_response: 'Approved',
      paid_at: new Date().toISOString(),
      channel: 'mobile_money',
    },
  };
}
