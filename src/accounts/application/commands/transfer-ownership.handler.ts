import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { transferOwnership } from '../../domain/members';
import { AccountChanges } from '../account-changes.service';
import { TransferOwnership } from './transfer-ownership.command';

@CommandHandler(TransferOwnership)
export class TransferOwnershipHandler implements ICommandHandler<TransferOwnership, void> {
  constructor(
    private readonly changes: AccountChanges,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, memberId, actor }: TransferOwnership): Promise<void> {
    await this.changes.decide(accountId, (a) =>
      transferOwnership(a, { memberId, actor, now: this.clock.now() }),
    );
  }
}
