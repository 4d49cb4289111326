import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { validateMessageField, validateSenderIdField } from '../../../messaging/domain/message-input';
import { CLOCK, Clock } from '../../../shared/clock';
import { OneAtATime } from '../../../shared/one-at-a-time';
import { DomainError } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { unwrap } from '../../../shared/result';
import { senderIdStream } from '../../domain/compliance.events';
import { request, senderIdDecider } from '../../domain/sender-id.decider';
import { ApiSenderId, toApiSenderId } from '../../projections/compliance.projection';
import { ComplianceReader } from '../compliance-reader';
import { RequestSenderId } from './request-sender-id.command';

/**
 * Records the request, pending the operator's review. The account's pending requests are counted
 * in the read model (caught up with the log) and the request appended one at a time per account
 * in this process, so parallel requests cannot all pass the count; processes sharing a store
 * each count so (docs/security.md).
 */
@CommandHandler(RequestSenderId)
export class RequestSenderIdHandler implements ICommandHandler<RequestSenderId, ApiSenderId> {
  /** An account's requests, one at a time in this process. */
  private readonly byAccount = new OneAtATime();

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
    const state = await this.byAccount.run(cmd.accountId, async () => {
      const pendingOthers = await this.reader.pendingSenderIds(cmd.accountId, senderId);
      const handled = unwrap(
        await this.aggregates.handle(senderIdStream(cmd.accountId, senderId), senderIdDecider, (state) =>
          request(state, {
            accountId: cmd.accountId,
            senderId,
            sampleMessage: sample.value.message,
            pendingOthers,
            actor: cmd.actor,
            now: this.clock.now(),
          }),
        ),
      );
      // Listed before the next request of the account counts.
      await this.reader.waitFor(handled.position);
      return handled.state;
    });
    if (state.status === 'none') throw new Error('a requested sender ID has a state');
    return toApiSenderId({ ...state, status: state.status });
  }
}
