import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { EVENT_STORE, EventStore } from '../../../shared/event-store/event-store.port';
import { unwrap } from '../../../shared/result';
import { NumberAssigned, numberStream } from '../../domain/compliance.events';
import { parseReceivingNumber } from '../../domain/receiving-number';
import { ComplianceReader } from '../compliance-reader';
import { ApiNumber, toApiNumber } from '../../projections/compliance.projection';
import { AssignNumber } from './assign-number.command';

/** A number's stream holds its assignments; the newest one says whose it is (no decision can fail). */
@CommandHandler(AssignNumber)
export class AssignNumberHandler implements ICommandHandler<AssignNumber, ApiNumber> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly reader: ComplianceReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(cmd: AssignNumber): Promise<ApiNumber> {
    const number = unwrap(parseReceivingNumber(cmd.number));
    const account = await this.reader.accountByEmail(cmd.email);
    const assigned: NumberAssigned = {
      type: 'NumberAssigned',
      data: {
        number,
        accountId: account.id,
        wallets: { ...account.wallets },
        assignedAt: this.clock.now().toISOString(),
      },
    };
    const appended = await this.events.append(numberStream(number), [assigned], 'any');
    await this.reader.waitFor(appended.position);
    return toApiNumber(assigned.data, account.email);
  }
}
