import type { PduOptions } from 'smpp';
import type { OutboundMessage } from '../../ports/carrier.port';
import { splitIntoParts } from '../../domain/segments';
import { encodeGsm7, encodeUcs2, Gsm7EncodingError } from './sms-encoding';

/** Builds the submit_sm fields for every part of a message; pure, no I/O. */
export const DATA_CODING_GSM7 = 0x00;
export const DATA_CODING_UCS2 = 0x08;
export const ESM_CLASS_UDHI = 0x40;
export const TON_INTERNATIONAL = 1;
export const TON_ALPHANUMERIC = 5;
export const NPI_ISDN = 1;
export const NPI_UNKNOWN = 0;

export type BuildResult =
  | { readonly ok: true; readonly parts: readonly PduOptions[] }
  | { readonly ok: false; readonly errorCode: string; readonly errorMessage: string };

/**
 * @param reference the concatenation reference (0-255) shared by the parts of this message
 */
export function buildSubmitSms(message: OutboundMessage, reference: number): BuildResult {
  let texts: string[];
  try {
    // The domain's splitter: the same rules the credits were counted with.
    texts = splitIntoParts(message.body, message.encoding);
  } catch (error) {
    return {
      ok: false,
      errorCode: 'invalid_encoding',
      errorMessage: error instanceof Error ? error.message : String(error),
    };
  }
  if (texts.length !== message.segments) {
    return {
      ok: false,
      errorCode: 'segment_count_mismatch',
      errorMessage: `Body splits into ${texts.length} parts but ${message.segments} were paid for`,
    };
  }
  if (texts.length > 255) {
    return {
      ok: false,
      errorCode: 'message_too_long',
      errorMessage: `${texts.length} parts is more than 255`,
    };
  }
  let payloads: Buffer[];
  try {
    payloads = texts.map((text) => (message.encoding === 'GSM-7' ? encodeGsm7(text) : encodeUcs2(text)));
  } catch (error) {
    if (error instanceof Gsm7EncodingError) {
      return { ok: false, errorCode: 'invalid_encoding', errorMessage: error.message };
    }
    throw error;
  }
  const common = {
    service_type: '',
    ...sourceAddress(message.senderId),
    dest_addr_ton: TON_INTERNATIONAL,
    dest_addr_npi: NPI_ISDN,
    destination_addr: message.to.replace(/^\+/, ''),
    protocol_id: 0,
    priority_flag: 0,
    validity_period: smppAbsoluteTime(message.validUntil),
    registered_delivery: 1,
    replace_if_present_flag: 0,
    data_coding: message.encoding === 'GSM-7' ? DATA_CODING_GSM7 : DATA_CODING_UCS2,
    sm_default_msg_id: 0,
  };
  const total = payloads.length;
  const parts = payloads.map((payload, index) =>
    total === 1
      ? { ...common, esm_class: 0, short_message: payload }
      : {
          ...common,
          esm_class: ESM_CLASS_UDHI,
          short_message: Buffer.concat([concatenationUdh(reference, total, index + 1), payload]),
        },
  );
  return { ok: true, parts };
}

/** UDH with the 8-bit concatenation element: 05 00 03 ref total seq. */
export function concatenationUdh(reference: number, total: number, sequence: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, sequence]);
}

/** Numeric sender ids are international numbers (TON 1/NPI 1); anything else is alphanumeric (TON 5/NPI 0). */
export function sourceAddress(senderId: string): {
  source_addr_ton: number;
  source_addr_npi: number;
  source_addr: string;
} {
  if (/^\+?\d+$/.test(senderId)) {
    return {
      source_addr_ton: TON_INTERNATIONAL,
      source_addr_npi: NPI_ISDN,
      source_addr: senderId.replace(/^\+/, ''),
    };
  }
  return { source_addr_ton: TON_ALPHANUMERIC, source_addr_npi: NPI_UNKNOWN, source_addr: senderId };
}

/** SMPP absolute time, UTC: YYMMDDhhmmsstnnp with t = tenths, nn = 00 quarter hours, p = '+'. Empty when unparseable. */
export function smppAbsoluteTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number): string => String(n).padStart(2, '0');
  return (
    two(date.getUTCFullYear() % 100) +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes()) +
    two(date.getUTCSeconds()) +
    String(Math.floor(date.getUTCMilliseconds() / 100)) +
    '00+'
  );
}
