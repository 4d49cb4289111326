import { Command } from '@nestjs/cqrs';
import type { ApiInboundMessage } from '../../projections/compliance.projection';

/**
 * `POST /v1/sandbox/inbound` with a TEST key: a reply to one of the account's assigned numbers,
 * received exactly as an SMPP one would be, recorded as TEST.
 */
export class SimulateInboundMessage extends Command<ApiInboundMessage> {
  constructor(
    readonly accountId: string,
    readonly environment: 'TEST' | 'LIVE',
    readonly body: { readonly from: unknown; readonly to: unknown; readonly message: unknown },
  ) {
    super();
  }
}
