import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import { validatePhoneNumber } from '../../../messaging/domain/phone-number';
import { DomainError, invalid } from '../../../shared/domain-error';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { unwrap } from '../../../shared/result';
import { NumberAssigned, numberStream } from '../../domain/compliance.events';
import { writtenAddress } from '../../domain/inbound-address';
import { MAX_INBOUND_LENGTH, parseReceivingNumber } from '../../domain/receiving-number';
import type { ApiInboundMessage } from '../../projections/compliance.projection';
import { ReceiveInboundMessage } from './receive-inbound-message.command';
import { SimulateInboundMessage } from './simulate-inbound-message.command';

@CommandHandler(SimulateInboundMessage)
export class SimulateInboundMessageHandler implements ICommandHandler<
  SimulateInboundMessage,
  ApiInboundMessage
> {
  constructor(
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  async execute({ accountId, environment, body }: SimulateInboundMessage): Promise<ApiInboundMessage> {
    if (environment !== 'TEST')
      throw new DomainError(
        'forbidden',
        'test_key_required',
        'Inbound messages are simulated with a TEST key only',
      );
    const fromResult = validatePhoneNumber(typeof body.from === 'string' ? body.from : '');
    if (!fromResult.ok)
      throw invalid('invalid_phone_number', 'from must be an E.164 number such as +233241234567', 'from');
    const to = unwrap(parseReceivingNumber(body.to, 'to'));
    const message = typeof body.message === 'string' ? body.message : '';
    if (message.length === 0 || message.length > MAX_INBOUND_LENGTH)
      throw invalid('invalid_message', `message must be 1 to ${MAX_INBOUND_LENGTH} characters`, 'message');
    const [assignment] = await this.events.readStream(numberStream(to), { direction: 'backwards', limit: 1 });
    if (!assignment || (assignment.data as NumberAssigned['data']).accountId !== accountId) {
      throw invalid(
        'number_not_assigned',
        `${to} is not assigned to this account: an operator assigns numbers with numbers:assign`,
        'to',
      );
    }
    return this.commands.execute(
      new ReceiveInboundMessage({
        from: writtenAddress(fromResult.value),
        to: writtenAddress(to),
        countryCallingCode: null,
        message,
        environment: 'TEST',
        carrier: null,
      }),
    );
  }
}
