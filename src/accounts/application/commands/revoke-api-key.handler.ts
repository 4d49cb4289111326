import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { notFound } from '../../../shared/domain-error';
import { AggregateStore } from '../../../shared/event-store/aggregate-store';
import { isIdOf } from '../../../shared/ids';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import * as account from '../../domain/account.decider';
import { accountStream } from '../../domain/account.events';
import { AccountReader } from '../account-reader';
import { RecentPrincipals } from '../recent-principals';
import { RevokeApiKey, RevokedKey } from './revoke-api-key.command';

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey, RevokedKey> {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly accounts: AccountReader,
    private readonly projections: ProjectionsService,
    private readonly recentPrincipals: RecentPrincipals,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ keyId, accountId, actor }: RevokeApiKey): Promise<RevokedKey> {
    const listing = isIdOf('key', keyId) ? await this.accounts.key(keyId) : null;
    if (!listing || (accountId !== null && listing.accountId !== accountId)) throw notFound('API key', 'id');
    const result = await this.aggregates.handle(
      accountStream(listing.accountId),
      account.accountDecider,
      (a) => account.revokeKey(a, { keyId, actor, now: this.clock.now() }),
    );
    if (!result.ok) throw result.error;
    // A revoked key must stop working on the very next request.
    await this.projections.waitFor(result.value.position);
    this.recentPrincipals.forget(listing.keyHash);
    return { id: keyId, accountId: listing.accountId, revoked: true };
  }
}
