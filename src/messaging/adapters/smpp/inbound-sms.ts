import type { PDU } from 'smpp';
import { receivingNumberFromAddress } from '../../../compliance/domain/receiving-number';
import type { CarrierInbound } from '../../ports/carrier.port';
import { messageText } from './delivery-receipt';

/**
 * A deliver_sm (or data_sm) that is no delivery receipt, as an inbound message: the SMSC writes
 * international numbers without their plus (233241234567) and short codes as they are. The
 * library decodes short_message by its data_coding (GSM-7, Latin-1, UCS-2). Null when it names
 * no sender or recipient, or carries no text. SMPP carriers are LIVE connections.
 */
export function inboundFromDeliverSm(pdu: PDU, carrier: string): CarrierInbound | null {
  const source = typeof pdu.source_addr === 'string' ? pdu.source_addr.trim() : '';
  const destination = typeof pdu.destination_addr === 'string' ? pdu.destination_addr.trim() : '';
  const text = messageText(pdu.short_message) ?? messageText(pdu.message_payload);
  if (source === '' || destination === '' || text === null) return null;
  return {
    carrier,
    from: receivingNumberFromAddress(source),
    to: receivingNumberFromAddress(destination),
    message: text,
    environment: 'LIVE',
  };
}
