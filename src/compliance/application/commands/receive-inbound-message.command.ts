import { Command } from '@nestjs/cqrs';
import type { SmsAddress } from '../../domain/inbound-address';
import type { ApiInboundMessage } from '../../projections/compliance.projection';

export interface InboundSms {
  /** The sender as the carrier wrote it, with its TON/NPI. */
  readonly from: SmsAddress;
  /** The number it was sent to (a long number or a short code), as the carrier wrote it. */
  readonly to: SmsAddress;
  /** The calling code of the route's country (`233`): how a national number is read; null when unknown. */
  readonly countryCallingCode: string | null;
  readonly message: string;
  readonly environment: 'TEST' | 'LIVE';
  /** The carrier connection it came through; null for a TEST simulation. */
  readonly carrier: string | null;
}

/**
 * A mobile-originated message reached the service (an SMPP deliver_sm that is no receipt, or a
 * TEST simulation): recorded for the account its number is assigned to, or for the operator.
 */
export class ReceiveInboundMessage extends Command<ApiInboundMessage> {
  constructor(readonly sms: InboundSms) {
    super();
  }
}
