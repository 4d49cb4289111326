import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock, CLOCK } from '../../../shared/clock';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../../shared/read-store/read-store.port';
import { dayOf, MESSAGE_ACTIVITY, WalletDayActivity } from '../../projections/message-activity.projection';
import { MESSAGES_PROJECTION } from '../../projections/messages.projection';
import { summarizeActivity } from '../message-activity-summary';
import { MessageActivity, MessageActivityView } from './message-activity.query';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Reads the window's wallet-day documents (at most `days` of them) once the read model has caught up. */
@QueryHandler(MessageActivity)
export class MessageActivityHandler implements IQueryHandler<MessageActivity, MessageActivityView> {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, days }: MessageActivity): Promise<MessageActivityView> {
    await this.projections.catchUp([MESSAGES_PROJECTION]);
    const now = this.clock.now().getTime();
    const window = Array.from({ length: days }, (_, i) =>
      dayOf(new Date(now - (days - 1 - i) * DAY_MS).toISOString()),
    );
    const docs = await this.reads.list<WalletDayActivity>(MESSAGE_ACTIVITY, {
      partition: walletId,
      order: 'desc',
      limit: days,
      afterSort: dayOf(new Date(now + DAY_MS).toISOString()), // exclusive: up to today
    });
    return summarizeActivity(window, docs);
  }
}
