import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CampaignSends } from '../campaign-sends.service';
import { SendConditions, SendConditionsView } from './send-conditions.query';

@QueryHandler(SendConditions)
export class SendConditionsHandler implements IQueryHandler<SendConditions, SendConditionsView> {
  constructor(private readonly campaigns: CampaignSends) {}

  execute({ sender, senderId }: SendConditions): Promise<SendConditionsView> {
    return this.campaigns.conditions(sender, senderId);
  }
}
