import type { Session } from 'smpp';
import { decodeGsm7, decodeUcs2 } from './sms-encoding';

/**
 * A submit_sm as the SMSC simulator received it, read from the raw PDU bytes (the library
 * re-decodes short_message into text, which would hide what the adapter actually sent).
 */
export interface SubmitSmFields {
  readonly serviceType: string;
  readonly sourceAddrTon: number;
  readonly sourceAddrNpi: number;
  readonly sourceAddr: string;
  readonly destAddrTon: number;
  readonly destAddrNpi: number;
  readonly destinationAddr: string;
  readonly esmClass: number;
  readonly protocolId: number;
  readonly priorityFlag: number;
  readonly scheduleDeliveryTime: string;
  readonly validityPeriod: string;
  readonly registeredDelivery: number;
  readonly dataCoding: number;
  /** The raw short_message octets, UDH included. */
  readonly shortMessage: Buffer;
  /** The user data header including its length octet, when esm_class has UDHI (0x40). */
  readonly udh: Buffer | null;
  /** short_message without the UDH. */
  readonly payload: Buffer;
  /** The concatenation element (IEI 00 or 08) of the UDH. */
  readonly concat: { readonly reference: number; readonly total: number; readonly sequence: number } | null;
  /** payload decoded by data_coding (0: GSM 03.38 unpacked, 8: UCS-2); null for other codings. */
  readonly text: string | null;
}

const HEADER_LENGTH = 16;

/** Parses a whole submit_sm PDU (header included); throws on truncated input. */
export function parseSubmitSm(pdu: Buffer): SubmitSmFields {
  let offset = HEADER_LENGTH;
  const byte = (): number => {
    if (offset >= pdu.length) throw new Error('submit_sm truncated');
    return pdu[offset++];
  };
  const cstring = (): string => {
    const end = pdu.indexOf(0, offset);
    if (end < 0) throw new Error('submit_sm truncated in a C-string');
    const value = pdu.toString('latin1', offset, end);
    offset = end + 1;
    return value;
  };
  const serviceType = cstring();
  const sourceAddrTon = byte();
  const sourceAddrNpi = byte();
  const sourceAddr = cstring();
  const destAddrTon = byte();
  const destAddrNpi = byte();
  const destinationAddr = cstring();
  const esmClass = byte();
  const protocolId = byte();
  const priorityFlag = byte();
  const scheduleDeliveryTime = cstring();
  const validityPeriod = cstring();
  const registeredDelivery = byte();
  byte(); // replace_if_present_flag
  const dataCoding = byte();
  byte(); // sm_default_msg_id
  const smLength = byte();
  if (offset + smLength > pdu.length) throw new Error('submit_sm short_message truncated');
  const shortMessage = Buffer.from(pdu.subarray(offset, offset + smLength));
  const hasUdh = (esmClass & 0x40) !== 0 && shortMessage.length > 0;
  const udh = hasUdh ? shortMessage.subarray(0, shortMessage[0] + 1) : null;
  const payload = hasUdh ? shortMessage.subarray(shortMessage[0] + 1) : shortMessage;
  return {
    serviceType,
    sourceAddrTon,
    sourceAddrNpi,
    sourceAddr,
    destAddrTon,
    destAddrNpi,
    destinationAddr,
    esmClass,
    protocolId,
    priorityFlag,
    scheduleDeliveryTime,
    validityPeriod,
    registeredDelivery,
    dataCoding,
    shortMessage,
    udh,
    payload,
    concat: udh ? concatenation(udh) : null,
    text: decodeText(payload, dataCoding),
  };
}

function concatenation(udh: Buffer): SubmitSmFields['concat'] {
  let offset = 1;
  while (offset + 2 <= udh.length) {
    const iei = udh[offset];
    const length = udh[offset + 1];
    const data = udh.subarray(offset + 2, offset + 2 + length);
    if (iei === 0x00 && length === 3) return { reference: data[0], total: data[1], sequence: data[2] };
    if (iei === 0x08 && length === 4)
      return { reference: data.readUInt16BE(0), total: data[2], sequence: data[3] };
    offset += 2 + length;
  }
  return null;
}

function decodeText(payload: Buffer, dataCoding: number): string | null {
  try {
    if (dataCoding === 0) return decodeGsm7(payload);
    if (dataCoding === 8) return decodeUcs2(payload);
  } catch {
    // Odd-length UCS-2: leave it to the bytes.
  }
  return null;
}

/**
 * Remembers the bytes of the last PDU the library read from the socket. The library reads a PDU
 * as read(4) (the length) then read(length - 4) and emits it synchronously, so inside a PDU
 * handler the last two reads are that PDU.
 */
export function capturePdus(session: Session): () => Buffer | null {
  const socket = session.socket;
  const read = socket.read.bind(socket);
  let lengthBytes: Buffer | null = null;
  let last: Buffer | null = null;
  socket.read = (size?: number): Buffer | null => {
    const chunk: unknown = read(size);
    if (!Buffer.isBuffer(chunk)) return null;
    if (size === 4) lengthBytes = chunk;
    else if (lengthBytes) last = Buffer.concat([lengthBytes, chunk]);
    return chunk;
  };
  return () => last;
}
