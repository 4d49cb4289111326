import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { isIdOf } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { WalletService } from '../../../wallet/application/wallet.service';
import { cancel, isMessage, messageDecider } from '../../domain/message.decider';
import { messageStream } from '../../domain/message.events';
import {
  ApiMessage,
  MESSAGES_PROJECTION,
  queuedDoc,
  toApiMessage,
} from '../../projections/messages.projection';
import { CANCELED_REASON } from '../settlement.process';
import { CancelMessage } from './cancel-message.command';

/**
 * Records MessageCanceled at the revision it decided on: against the dispatcher making the message
 * due at the same instant, exactly one append lands and the other decides again on the new state
 * (here: 409 message_not_cancelable). The credits are released before answering, so the next
 * `sms_left` read has them; the settlement process releases them too if this process stops in
 * between, and a release is idempotent per message, so they come back once.
 */
@CommandHandler(CancelMessage)
export class CancelMessageHandler implements ICommandHandler<CancelMessage, ApiMessage> {
  private readonly logger = new Logger('cancel-message');

  constructor(
    private readonly aggregates: AggregateStore,
    private readonly wallets: WalletService,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ id, scope }: CancelMessage): Promise<ApiMessage> {
    if (!isIdOf('msg', id)) throw notFound('message', 'id');
    const handled = await this.aggregates.handle(messageStream(id), messageDecider, (state) =>
      cancel(state, { ...scope, now: this.clock.now() }),
    );
    if (!handled.ok) throw handled.error;
    const { state, position } = handled.value;
    if (!isMessage(state)) throw notFound('message', 'id');
    const released = await this.wallets.release(state.walletId, id, CANCELED_REASON);
    if (!released.ok) this.logger.warn(`releasing canceled ${id} refused: ${released.error.code}`);
    // A read right after this answer must not show it SCHEDULED again.
    await this.projections.waitFor(position, [MESSAGES_PROJECTION]);
    return {
      ...toApiMessage(queuedDoc(state, '', handled.value.revision)),
      status: state.status,
      updated_at: state.updatedAt,
    };
  }
}
