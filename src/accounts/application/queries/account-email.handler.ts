import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { accountDecider } from '../../domain/account.decider';
import { accountStream } from '../../domain/account.events';
import { AccountEmail } from './account-email.query';

/**
 * Read from the account's stream rather than the read model: process managers ask it about
 * accounts whose registration the read models may not have applied yet.
 */
@QueryHandler(AccountEmail)
export class AccountEmailHandler implements IQueryHandler<AccountEmail, string | null> {
  constructor(private readonly aggregates: AggregateStore) {}

  async execute({ accountId }: AccountEmail): Promise<string | null> {
    const { state } = await this.aggregates.load(accountStream(accountId), accountDecider);
    return state.email;
  }
}
