/**
 * Outbound port to the carriers (SMSCs). One Carrier per connection; CARRIER_ROUTES picks the
 * carrier for a route and environment. Every adapter reports outcomes back through the one
 * inbound path, the ReceiptSink, so TEST simulation and live SMPP settle messages the same way.
 */
export const CARRIER_ROUTES = Symbol('CARRIER_ROUTES');

export type Environment = 'TEST' | 'LIVE';
export type Encoding = 'GSM-7' | 'UCS-2';

export interface OutboundMessage {
  readonly messageId: string;
  /** E.164 with the plus sign. */
  readonly to: string;
  readonly senderId: string;
  readonly body: string;
  /** Exactly as the credits were computed: the adapter must not re-decide it. */
  readonly encoding: Encoding;
  readonly segments: number;
  readonly environment: Environment;
  /** ISO time after which the carrier should give up (SMPP validity_period). */
  readonly validUntil: string;
}

export type SubmitResult =
  /** Handed over; one carrier id per part, in part order. */
  | { readonly outcome: 'accepted'; readonly carrierMessageIds: readonly string[] }
  /** Refused for good: the message ends FAILED with this code (an SMPP status name, say). */
  | { readonly outcome: 'rejected'; readonly errorCode: string; readonly errorMessage: string }
  /** Not now (throttled, queue full, disconnected): submit again after `afterMs`. */
  | { readonly outcome: 'retry'; readonly afterMs: number; readonly reason: string };

export type FinalStatus = 'DELIVERED' | 'FAILED' | 'EXPIRED';

/** One delivery receipt for one part, as a carrier reported it. */
export interface CarrierReceipt {
  /**
   * The connection it came through: a receipt counts only for a message submitted on that
   * carrier's route in that environment (an SMSC cannot end another route's or a TEST message).
   */
  readonly carrier: string;
  readonly environment: Environment;
  /**
   * The ids the receipt may refer to; a carrier may write its id in hex or decimal, so an
   * adapter lists every spelling and the sink matches any of them.
   */
  readonly carrierMessageIdCandidates: readonly string[];
  readonly status: FinalStatus;
  /** The carrier's own word for it, e.g. DELIVRD or UNDELIV. */
  readonly carrierStatus: string;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly reportedAt: Date;
  /**
   * The message the receipt is for, when the carrier knows it (the TEST simulator derives its ids
   * from the message's): then no carrier-id look-up is needed.
   */
  readonly messageId?: string;
}

/** An address exactly as the carrier wrote it, with its type of number and numbering plan (SMPP TON/NPI). */
export interface CarrierAddress {
  readonly address: string;
  readonly ton: number | null;
  readonly npi: number | null;
}

/**
 * A mobile-originated message (a reply, a STOP) as a carrier delivered it. Its addresses are
 * read (national numbers by the route's country, text kept as text) by the inbound path.
 */
export interface CarrierInbound {
  readonly carrier: string;
  /** The sender. */
  readonly from: CarrierAddress;
  /** The number it was sent to: a long number or a short code. */
  readonly to: CarrierAddress;
  readonly message: string;
  readonly environment: Environment;
}

/**
 * The one inbound path for delivery outcomes, and for mobile-originated messages. Resolves once
 * the receipt (or message) is recorded (or dropped as unknown). A sink without `inbound` drops them.
 */
export interface ReceiptSink {
  receipt(receipt: CarrierReceipt): Promise<void>;
  inbound?(message: CarrierInbound): Promise<void>;
}

export interface Carrier {
  /** The route's carrier name, e.g. MTN. */
  readonly name: string;
  submit(message: OutboundMessage): Promise<SubmitResult>;
  /** Connects (where there is anything to connect) and starts reporting receipts to the sink. */
  start(sink: ReceiptSink): Promise<void>;
  stop(): Promise<void>;
}

export interface CarrierRoutes {
  /** The carrier that sends for this carrier name in this environment, or null when none is configured. */
  carrierFor(carrierName: string, environment: Environment): Carrier | null;
  /** Every carrier to start and stop with the application. */
  all(): readonly Carrier[];
}
