import { Injectable } from '@nestjs/common';
import type { DomainError } from '../../shared/domain-error';
import { AggregateStore, type Handled } from '../../shared/event-store/aggregate-store';
import { ProjectionsService } from '../../shared/projections/projections.service';
import type { Result } from '../../shared/result';
import { type Account, accountDecider } from '../domain/account.decider';
import { type AccountEvent, accountStream } from '../domain/account.events';

/**
 * One decision on an account's stream, recorded at its revision, and the read models brought up
 * to it before the answer: what the members use cases share (the next page shows the change, and
 * the console's guard reads the new role at once).
 */
@Injectable()
export class AccountChanges {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly projections: ProjectionsService,
  ) {}

  async decide(
    accountId: string,
    decide: (account: Account) => Result<AccountEvent[], DomainError>,
  ): Promise<Handled<Account, AccountEvent>> {
    const result = await this.aggregates.handle(accountStream(accountId), accountDecider, decide);
    if (!result.ok) throw result.error;
    await this.projections.waitFor(result.value.position);
    return result.value;
  }

  /** The account's state now (for a use case that must look before it decides). */
  async state(accountId: string): Promise<Account> {
    return (await this.aggregates.state(accountStream(accountId), accountDecider, { trustRemembered: false }))
      .state;
  }
}
