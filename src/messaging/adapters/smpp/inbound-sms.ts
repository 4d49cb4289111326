import type { PDU } from 'smpp';
import type { CarrierAddress, CarrierInbound } from '../../ports/carrier.port';
import { messageText } from './delivery-receipt';

/**
 * A deliver_sm (or data_sm) that is no delivery receipt, as an inbound message: its addresses as
 * the SMSC wrote them (international numbers usually without their plus, 233241234567; national
 * ones, 0241234597; short codes; sometimes names), each with its TON and NPI, for the inbound
 * path to read. The library decodes short_message by its data_coding (GSM-7, Latin-1, UCS-2).
 * Null when it names no sender or recipient, or carries no text. SMPP carriers are LIVE connections.
 */
export function inboundFromDeliverSm(pdu: PDU, carrier: string): CarrierInbound | null {
  const source = typeof pdu.source_addr === 'string' ? pdu.source_addr.trim() : '';
  const destination = typeof pdu.destination_addr === 'string' ? pdu.destination_addr.trim() : '';
  const text = messageText(pdu.short_message) ?? messageText(pdu.message_payload);
  if (source === '' || destination === '' || text === null) return null;
  const field = (name: string): number | null =>
    typeof pdu[name] === 'number' ? (pdu[name] as number) : null;
  const address = (written: string, prefix: 'source_addr' | 'dest_addr'): CarrierAddress => ({
    address: written,
    ton: field(`${prefix}_ton`),
    npi: field(`${prefix}_npi`),
  });
  return {
    carrier,
    from: address(source, 'source_addr'),
    to: address(destination, 'dest_addr'),
    message: text,
    environment: 'LIVE',
  };
}
