import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { validateMessageField, validateSenderIdField } from '../../../messaging/domain/message-input';
import { CLOCK, Clock } from '../../../shared/clock';
import { DomainError } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { unwrap } from '../../../shared/result';
import { senderIdStream } from '../../domain/compliance.events';
import { request, senderIdDecider } from '../../domain/sender-id.decider';
import { ApiSenderId, toApiSenderId } from '../../projections/compliance.projection';
import { ComplianceReader } from '../compliance-reader';
import { RequestSenderId } from './request-sender-id.command';

@CommandHandler(RequestSenderId)
export class RequestSenderIdHandler implements ICommandHandler<RequestSenderId, ApiSenderId> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly reader: ComplianceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(cmd: RequestSenderId): Promise<ApiSenderId> {
    // The same rules a send's sender_id and message follow: what is registered can be sent.
    const senderId = unwrap(validateSenderIdField(cmd.senderId));
    const sample = validateMessageField(cmd.sampleMessage);
    if (!sample.ok) {
      const { kind, code, message } = sample.error;
      throw new DomainError(kind, code, message.replace(/^message/, 'sample_message'), 'sample_message');
    }
    const handled = unwrap(
      await this.aggregates.handle(senderIdStream(cmd.accountId, senderId), senderIdDecider, (state) =>
        request(state, {
          accountId: cmd.accountId,
          senderId,
          sampleMessage: sample.value.message,
          actor: cmd.actor,
          now: this.clock.now(),
        }),
      ),
    );
    await this.reader.waitFor(handled.position);
    const state = handled.state;
    if (state.status === 'none') throw new Error('a requested sender ID has a state');
    return toApiSenderId({ ...state, status: state.status });
  }
}
