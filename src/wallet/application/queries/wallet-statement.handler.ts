import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../../../shared/clock';
import { type Statement, StatementFold, statementPeriod } from '../../domain/statement';
import { WalletService } from '../wallet.service';
import { WalletStatement } from './wallet-statement.query';

/**
 * Folds the wallet's own events (the ledger itself, no read model), so the statement agrees
 * with `wallet:replay` to the credit; the send path pays nothing for it.
 */
@QueryHandler(WalletStatement)
export class WalletStatementHandler implements IQueryHandler<WalletStatement, Statement> {
  constructor(
    private readonly wallets: WalletService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ walletId, period }: WalletStatement): Promise<Statement> {
    const checked = statementPeriod(period, this.clock.now());
    if (!checked.ok) throw checked.error;
    const fold = new StatementFold(checked.value.from, checked.value.to);
    await this.wallets.readAll(walletId, (page) => {
      for (const event of page) fold.add(event);
    });
    return fold.result();
  }
}
