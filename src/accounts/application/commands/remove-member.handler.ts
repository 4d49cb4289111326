import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { removeMember } from '../../domain/members';
import { AccountChanges } from '../account-changes.service';
import { RemoveMember } from './remove-member.command';

@CommandHandler(RemoveMember)
export class RemoveMemberHandler implements ICommandHandler<RemoveMember, void> {
  constructor(
    private readonly changes: AccountChanges,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, memberId, actor }: RemoveMember): Promise<void> {
    await this.changes.decide(accountId, (a) => removeMember(a, { memberId, actor, now: this.clock.now() }));
  }
}
