import type { PDU } from 'smpp';
import type { CarrierReceipt, FinalStatus } from '../../ports/carrier.port';
import { carrierMessageIdCandidates } from './carrier-message-id';

/**
 * Delivery receipts (deliver_sm). Only a PDU the SMSC flagged as one is a receipt: esm_class
 * message type SMSC delivery receipt (0x04), SME delivery acknowledgement (0x08) or intermediate
 * notification (0x20), or a receipted_message_id TLV. A handset sets none of these, whatever it
 * types: an SMS reading "id:… stat:UNDELIV" is a mobile-originated message (issue 28). The
 * outcome comes from the TLVs receipted_message_id and message_state when present, else from the
 * de-facto text format
 *   id:IIII sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:...
 * Intermediate states (ACCEPTD, ENROUTE, SCHEDULED) are no report. A deliver_sm that is not a
 * receipt (a mobile-originated message) is handed to the caller as such.
 */

/** What the parser reads from a deliver_sm, independent of the library. */
export interface DeliverSmView {
  readonly esmClass: number;
  readonly text: string | null;
  readonly receiptedMessageId: string | null;
  readonly messageState: number | null;
  /** network_error_code TLV: network type, then a 2-byte error code. */
  readonly networkErrorCode: Buffer | null;
}

export type ReceiptParse =
  | { readonly kind: 'receipt'; readonly receipt: CarrierReceipt }
  | { readonly kind: 'intermediate'; readonly carrierMessageId: string; readonly carrierStatus: string }
  | { readonly kind: 'not-a-receipt' }
  | { readonly kind: 'invalid'; readonly reason: string };

export interface ReceiptTextFields {
  readonly id: string;
  readonly stat: string;
  readonly err: string | null;
  readonly sub: string | null;
  readonly dlvrd: string | null;
  readonly submitDate: string | null;
  readonly doneDate: string | null;
}

type Outcome =
  | { readonly final: true; readonly status: FinalStatus; readonly errorCode: string | null }
  | { readonly final: false };

const OUTCOMES: Readonly<Record<string, Outcome>> = {
  DELIVRD: { final: true, status: 'DELIVERED', errorCode: null },
  EXPIRED: { final: true, status: 'EXPIRED', errorCode: 'expired' },
  UNDELIV: { final: true, status: 'FAILED', errorCode: 'undeliverable' },
  REJECTD: { final: true, status: 'FAILED', errorCode: 'rejected' },
  DELETED: { final: true, status: 'FAILED', errorCode: 'deleted' },
  UNKNOWN: { final: true, status: 'FAILED', errorCode: 'unknown' },
  SKIPPED: { final: true, status: 'FAILED', errorCode: 'skipped' },
  ACCEPTD: { final: false },
  ENROUTE: { final: false },
  SCHEDULED: { final: false },
};

/** Longer spellings some carriers write, mapped to the usual seven-letter words. */
const ALIASES: Readonly<Record<string, string>> = {
  DELIVERED: 'DELIVRD',
  UNDELIVERABLE: 'UNDELIV',
  UNDELIVERED: 'UNDELIV',
  REJECTED: 'REJECTD',
  ACCEPTED: 'ACCEPTD',
};

/** message_state TLV values (SMPP 3.4 §5.2.28, 5.0 adds SKIPPED). */
const MESSAGE_STATES: readonly string[] = [
  'SCHEDULED',
  'ENROUTE',
  'DELIVRD',
  'EXPIRED',
  'DELETED',
  'UNDELIV',
  'ACCEPTD',
  'UNKNOWN',
  'REJECTD',
  'SKIPPED',
];

const MESSAGE_TYPE_MASK = 0x3c;
const SMSC_DELIVERY_RECEIPT = 0x04;
const SME_DELIVERY_ACKNOWLEDGEMENT = 0x08;
const INTERMEDIATE_NOTIFICATION = 0x20;
const RECEIPT_TYPES: ReadonlySet<number> = new Set([
  SMSC_DELIVERY_RECEIPT,
  SME_DELIVERY_ACKNOWLEDGEMENT,
  INTERMEDIATE_NOTIFICATION,
]);

export function deliverSmView(pdu: PDU): DeliverSmView {
  const numberField = (name: string): number | null => {
    const value = pdu[name];
    return typeof value === 'number' ? value : null;
  };
  const receipted = pdu.receipted_message_id;
  const network = pdu.network_error_code;
  return {
    esmClass: numberField('esm_class') ?? 0,
    text: messageText(pdu.short_message) ?? messageText(pdu.message_payload),
    receiptedMessageId: typeof receipted === 'string' && receipted.trim() !== '' ? receipted.trim() : null,
    messageState: numberField('message_state'),
    networkErrorCode: Buffer.isBuffer(network) ? network : null,
  };
}

/** short_message as the library decodes it: a string, a Buffer, or { udh, message }. */
export function messageText(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (Buffer.isBuffer(value)) return value.length === 0 ? null : value.toString('latin1');
  if (typeof value === 'object' && value !== null && 'message' in value) {
    return messageText((value as { message: unknown }).message);
  }
  return null;
}

export function parseReceiptText(text: string): ReceiptTextFields | null {
  // Everything after "text:" is the start of the original message, which may contain anything.
  const head = text.split(/\btext:/i)[0];
  const field = (pattern: RegExp): string | null => pattern.exec(head)?.[1] ?? null;
  const id = field(/\bid:\s*([^\s]+)/i);
  const stat = field(/\bstat:\s*([A-Za-z_]+)/i);
  if (id === null || stat === null) return null;
  return {
    id,
    stat: stat.toUpperCase(),
    err: field(/\berr:\s*([^\s]+)/i),
    sub: field(/\bsub:\s*([^\s]+)/i),
    dlvrd: field(/\bdlvrd:\s*([^\s]+)/i),
    submitDate: field(/\bsubmit date:\s*(\d+)/i),
    doneDate: field(/\bdone date:\s*(\d+)/i),
  };
}

export function parseDeliveryReceipt(view: DeliverSmView, carrier: string, receivedAt: Date): ReceiptParse {
  const messageType = view.esmClass & MESSAGE_TYPE_MASK;
  // What the text says never makes a receipt: only the SMSC's own flags do.
  if (!RECEIPT_TYPES.has(messageType) && view.receiptedMessageId === null) return { kind: 'not-a-receipt' };
  const fields = view.text === null ? null : parseReceiptText(view.text);

  const id = view.receiptedMessageId ?? fields?.id ?? null;
  if (id === null) return { kind: 'invalid', reason: 'receipt without a message id' };

  let word: string | undefined;
  if (view.messageState !== null) {
    word = MESSAGE_STATES[view.messageState];
    if (word === undefined) return { kind: 'invalid', reason: `unknown message_state ${view.messageState}` };
  } else if (fields !== null) {
    word = ALIASES[fields.stat] ?? fields.stat;
  } else {
    return { kind: 'invalid', reason: 'receipt without message_state or stat' };
  }
  const outcome = OUTCOMES[word];
  if (outcome === undefined) return { kind: 'invalid', reason: `unknown receipt status "${word}"` };
  if (!outcome.final || messageType === INTERMEDIATE_NOTIFICATION) {
    return { kind: 'intermediate', carrierMessageId: id, carrierStatus: word };
  }

  const err = fields?.err ?? networkError(view.networkErrorCode);
  const failed = outcome.status !== 'DELIVERED';
  return {
    kind: 'receipt',
    receipt: {
      carrier,
      // An SMPP connection is a LIVE one (CARRIER_<NAME>_URL).
      environment: 'LIVE',
      carrierMessageIdCandidates: carrierMessageIdCandidates(id),
      status: outcome.status,
      carrierStatus: word,
      errorCode: outcome.errorCode,
      errorMessage: failed ? `Carrier reported ${word}${err === null ? '' : ` (err:${err})`}` : null,
      reportedAt: receivedAt,
    },
  };
}

function networkError(value: Buffer | null): string | null {
  if (value === null || value.length < 3) return null;
  return `${value[0]}/${value.readUInt16BE(1)}`;
}
