import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ComplianceGate } from '../compliance-gate.service';
import { OptedOutNumbers } from './opted-out-numbers.query';

@QueryHandler(OptedOutNumbers)
export class OptedOutNumbersHandler implements IQueryHandler<OptedOutNumbers, ReadonlySet<string>> {
  constructor(private readonly gate: ComplianceGate) {}

  execute({ walletId, phoneNumbers }: OptedOutNumbers): Promise<ReadonlySet<string>> {
    return this.gate.optedOut(walletId, phoneNumbers);
  }
}
