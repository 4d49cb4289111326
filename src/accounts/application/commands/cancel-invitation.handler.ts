import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { cancelInvitation } from '../../domain/members';
import { AccountChanges } from '../account-changes.service';
import { CancelInvitation } from './cancel-invitation.command';

@CommandHandler(CancelInvitation)
export class CancelInvitationHandler implements ICommandHandler<CancelInvitation, void> {
  constructor(
    private readonly changes: AccountChanges,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, invitationId, actor }: CancelInvitation): Promise<void> {
    await this.changes.decide(accountId, (a) =>
      cancelInvitation(a, { invitationId, actor, now: this.clock.now() }),
    );
  }
}
