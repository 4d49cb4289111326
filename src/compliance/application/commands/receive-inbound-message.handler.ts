import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { newId } from '../../../shared/ids';
import {
  InboundMessageReceived,
  inboundStream,
  NumberAssigned,
  numberStream,
} from '../../domain/compliance.events';
import { readInboundAddress } from '../../domain/inbound-address';
import { MAX_INBOUND_LENGTH } from '../../domain/receiving-number';
import { ApiInboundMessage, toApiInbound } from '../../projections/compliance.projection';
import { ReceiveInboundMessage } from './receive-inbound-message.command';

/** The longest sender or recipient text kept when it is not a number (SMPP allows 21 octets). */
const MAX_ADDRESS_TEXT = 64;

/**
 * Records the inbound message once, in its own stream, naming the wallet of the account its
 * number is assigned to (read from the number's newest assignment, so a number moved a moment
 * ago counts). Its addresses are read by their TON and the route's country first: a national
 * sender is recorded in E.164, and one that is no number is kept as text (`fromKind`), which
 * never becomes an opt-out. Everything else follows from the log: the list, the opt-out keywords
 * (the opt-outs process) and the `message.received` webhook event.
 */
@CommandHandler(ReceiveInboundMessage)
export class ReceiveInboundMessageHandler implements ICommandHandler<
  ReceiveInboundMessage,
  ApiInboundMessage
> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ sms }: ReceiveInboundMessage): Promise<ApiInboundMessage> {
    const from = readInboundAddress(sms.from, sms.countryCallingCode);
    const to = readInboundAddress(sms.to, sms.countryCallingCode);
    const [assignment] =
      to.kind === 'text'
        ? []
        : await this.events.readStream(numberStream(to.value), { direction: 'backwards', limit: 1 });
    const owner = assignment ? (assignment.data as NumberAssigned['data']) : null;
    const inboundId = newId('in');
    const received: InboundMessageReceived = {
      type: 'InboundMessageReceived',
      data: {
        inboundId,
        from: from.value.slice(0, MAX_ADDRESS_TEXT),
        fromKind: from.kind,
        to: to.value.slice(0, MAX_ADDRESS_TEXT),
        message: sms.message.slice(0, MAX_INBOUND_LENGTH),
        environment: sms.environment,
        accountId: owner?.accountId ?? null,
        walletId: owner ? owner.wallets[sms.environment] : null,
        carrier: sms.carrier,
        receivedAt: this.clock.now().toISOString(),
      },
    };
    await this.events.append(inboundStream(inboundId), [received], 'no_stream');
    return toApiInbound(received.data);
  }
}
