import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { changeRole } from '../../domain/members';
import { AccountChanges } from '../account-changes.service';
import { ChangeMemberRole } from './change-member-role.command';

@CommandHandler(ChangeMemberRole)
export class ChangeMemberRoleHandler implements ICommandHandler<ChangeMemberRole, void> {
  constructor(
    private readonly changes: AccountChanges,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, memberId, role, actor }: ChangeMemberRole): Promise<void> {
    await this.changes.decide(accountId, (a) =>
      changeRole(a, { memberId, role, actor, now: this.clock.now() }),
    );
  }
}
