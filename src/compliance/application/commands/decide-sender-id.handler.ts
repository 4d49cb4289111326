import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { unwrap } from '../../../shared/result';
import { senderIdStream } from '../../domain/compliance.events';
import { approve, reject, senderIdDecider } from '../../domain/sender-id.decider';
import { ApiSenderId, toApiSenderId } from '../../projections/compliance.projection';
import { ComplianceReader } from '../compliance-reader';
import { DecideSenderId } from './decide-sender-id.command';

@CommandHandler(DecideSenderId)
export class DecideSenderIdHandler implements ICommandHandler<DecideSenderId> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly reader: ComplianceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    email,
    senderId,
    decision,
  }: DecideSenderId): Promise<ApiSenderId & { account_id: string; email: string }> {
    const account = await this.reader.accountByEmail(email);
    const now = this.clock.now();
    const handled = unwrap(
      await this.aggregates.handle(senderIdStream(account.id, senderId), senderIdDecider, (state) =>
        decision.verdict === 'approve'
          ? approve(state, { senderId, now })
          : reject(state, { senderId, reason: decision.reason, now }),
      ),
    );
    await this.reader.waitFor(handled.position);
    const state = handled.state;
    if (state.status === 'none') throw new Error('a decided sender ID has a state');
    return {
      ...toApiSenderId({ ...state, status: state.status }),
      account_id: account.id,
      email: account.email,
    };
  }
}
