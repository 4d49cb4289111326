import type { PduOptions } from 'smpp';
import type { ReceiptStat } from './smsc-outcome-rules';
import type { SubmitSmFields } from './smsc-submission';

/**
 * deliver_sm receipts as the SMSC simulator writes them: 'text' (the id:… stat:… text only),
 * 'tlv' (receipted_message_id + message_state + network_error_code, empty short_message) or
 * 'tlv-and-text' (both, as many SMSCs do).
 */
export type ReceiptStyle = 'text' | 'tlv' | 'tlv-and-text';
/** 'alternate': text-only and TLV-only receipts in turn. */
export type ReceiptStyleOption = ReceiptStyle | 'alternate';
/** How a receipt writes the id: as issued, in decimal, in hex, or 'alternate' (pairs in decimal, then as issued). */
export type ReceiptIdFormat = 'as-issued' | 'decimal' | 'hex' | 'alternate';

const MESSAGE_STATE: Readonly<Record<ReceiptStat, number>> = {
  ENROUTE: 1,
  DELIVRD: 2,
  EXPIRED: 3,
  DELETED: 4,
  UNDELIV: 5,
  ACCEPTD: 6,
  UNKNOWN: 7,
  REJECTD: 8,
};

export interface ReceiptSpec {
  readonly submission: SubmitSmFields;
  /** The id as the receipt writes it (maybe another base than in submit_sm_resp). */
  readonly writtenId: string;
  readonly stat: ReceiptStat;
  readonly err: string;
  readonly style: ReceiptStyle;
  readonly submittedAt: Date;
  readonly doneAt: Date;
}

export function receiptText(spec: ReceiptSpec): string {
  const delivered = spec.stat === 'DELIVRD' ? '001' : '000';
  const preview = (spec.submission.text ?? '').slice(0, 20).replace(/[^\x20-\x7e]/g, '?');
  return (
    `id:${spec.writtenId} sub:001 dlvrd:${delivered} submit date:${receiptDate(spec.submittedAt)} ` +
    `done date:${receiptDate(spec.doneAt)} stat:${spec.stat} err:${spec.err} text:${preview}`
  );
}

export function receiptDeliverSm(spec: ReceiptSpec): PduOptions {
  const { submission } = spec;
  const fields: PduOptions = {
    service_type: '',
    source_addr_ton: submission.destAddrTon,
    source_addr_npi: submission.destAddrNpi,
    source_addr: submission.destinationAddr,
    dest_addr_ton: submission.sourceAddrTon,
    dest_addr_npi: submission.sourceAddrNpi,
    destination_addr: submission.sourceAddr,
    esm_class: 0x04,
    data_coding: 0,
    short_message: spec.style === 'tlv' ? Buffer.alloc(0) : Buffer.from(receiptText(spec), 'ascii'),
  };
  if (spec.style !== 'text') {
    fields.receipted_message_id = spec.writtenId;
    fields.message_state = MESSAGE_STATE[spec.stat];
    const code = Number.parseInt(spec.err, 10);
    if (Number.isInteger(code) && code > 0)
      fields.network_error_code = Buffer.from([3, (code >> 8) & 0xff, code & 0xff]);
  }
  return fields;
}

/** YYMMDDhhmm, UTC. */
function receiptDate(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return (
    two(date.getUTCFullYear() % 100) +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes())
  );
}

/** The style of the n-th receipt (1-based). */
export function receiptStyleFor(option: ReceiptStyleOption, n: number): ReceiptStyle {
  if (option !== 'alternate') return option;
  return n % 2 === 1 ? 'text' : 'tlv';
}

/** The id as the n-th receipt (1-based) writes it. */
export function receiptWrittenId(
  messageId: string,
  issuedAs: 'hex' | 'decimal',
  format: ReceiptIdFormat,
  n: number,
): string {
  const value = Number.parseInt(messageId, issuedAs === 'hex' ? 16 : 10);
  if (Number.isNaN(value)) return messageId;
  const decimal = format === 'decimal' || (format === 'alternate' && Math.floor((n - 1) / 2) % 2 === 0);
  if (decimal) return String(value);
  if (format === 'hex') return value.toString(16).toUpperCase();
  return messageId;
}
