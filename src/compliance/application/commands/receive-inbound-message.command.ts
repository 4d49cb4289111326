import { Command } from '@nestjs/cqrs';
import type { ApiInboundMessage } from '../../projections/compliance.projection';

export interface InboundSms {
  readonly from: string;
  /** The number it was sent to: a long number (E.164) or a short code. */
  readonly to: string;
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
