/** Outbound port: POSTs one signed webhook to a receiver. */
export const WEBHOOK_SENDER = Symbol('WEBHOOK_SENDER');

export interface WebhookRequest {
  readonly url: string;
  readonly body: string;
  readonly headers: Record<string, string>;
  /** LIVE endpoints: refuse to connect to loopback, private or link-local addresses. */
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

/** Resolves a host name and refuses it when any address is unsafe for a LIVE endpoint. */
export const ADDRESS_GUARD = Symbol('ADDRESS_GUARD');
export interface AddressGuard {
  /** Null when every address the host resolves to is public, else why not. */
  check(host: string): Promise<string | null>;
}
