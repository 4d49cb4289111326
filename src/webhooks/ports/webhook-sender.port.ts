/** Outbound port: POSTs one signed webhook to a receiver. */
export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');

export interface WebhookRequest {
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  /**
   * Refuse to connect to any address but a public one (every endpoint, TEST or LIVE, unless the
   * operator set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true for local development).
   */
  readonly publicOnly: boolean;
  readonly timeoutMs: number;
  /** Aborted on shutdown: the attempt then counts for nothing and is made again later. */
  readonly signal: AbortSignal;
}

/** `status` is the HTTP status when the receiver answered, else null with the reason in `error`. */
export interface WebhookResponse {
  readonly status: number | null;
  readonly error: string | null;
}

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}

/** Resolves a host name and refuses it when any address is not public. */
export const ADDRESS_GUARD = Symbol('ADDRESS_GUARD');
export interface AddressGuard {
  /** Null when every address the host resolves to is public, else why not. */
  check(host: string): Promise<string | null>;
}

/**
 * Resolves a host name to every address it has: node's dns.lookup in production. The address
 * guard and the delivery's socket both resolve through it, so a test can make a name resolve
 * to 127.0.0.1 after the endpoint was created (DNS rebinding).
 */
export const HOST_RESOLVER = Symbol('HOST_RESOLVER');
export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}
export interface HostResolver {
  resolve(host: string, family?: number): Promise<ResolvedAddress[]>;
}
