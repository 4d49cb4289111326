import { Get, Header, Query, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { WalletStatement } from '../../wallet/application/queries/wallet-statement.query';
import { statementCsv } from '../../wallet/domain/statement';
import { signedIn } from './console-auth';
import { StatementPageQuery } from './console-forms.dto';
import type { ConsoleRequest } from './console-http';
import { ConsolePage, ConsolePages } from './console-page';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/** A month's UTC days, up to today for the current month; another shape means this month. */
function monthPeriod(month: string | undefined, now: Date): { month: string; from: string; to: string } {
  const shown = month && MONTH.test(month) && month <= monthOf(now) ? month : monthOf(now);
  const [year, m] = shown.split('-').map(Number);
  const last = new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
  const today = now.toISOString().slice(0, 10);
  return { month: shown, from: `${shown}-01`, to: last < today ? last : today };
}

const shiftMonth = (month: string, by: number) => {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year, m - 1 + by, 1)).toISOString().slice(0, 7);
};

/** The Statement page: a month of the wallet's statement (the API's), and its CSV. */
@ConsolePages()
export class ConsoleWalletCareController {
  constructor(
    private readonly page: ConsolePage,
    private readonly queries: QueryBus,
  ) {}

  @Get('statement')
  async statement(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: StatementPageQuery,
  ): Promise<void> {
    const now = new Date();
    const period = monthPeriod(query.month, now);
    const statement = await this.queries.execute(
      new WalletStatement(signedIn(request).walletId, { from: period.from, to: period.to }),
    );
    await this.page.render(request, reply, 'statement', {
      title: 'Statement',
      nav: 'statement',
      month: period.month,
      statement,
      previousMonth: shiftMonth(period.month, -1),
      nextMonth: period.month < monthOf(now) ? shiftMonth(period.month, 1) : null,
      csvHref: `/console/statement.csv?month=${period.month}`,
    });
  }

  @Get('statement.csv')
  @Header('content-type', 'text/csv; charset=utf-8')
  @Header('cache-control', 'no-store')
  async statementCsv(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: StatementPageQuery,
  ): Promise<void> {
    const period = monthPeriod(query.month, new Date());
    const { walletId, session } = signedIn(request);
    const statement = await this.queries.execute(
      new WalletStatement(walletId, { from: period.from, to: period.to }),
    );
    void reply
      .header(
        'content-disposition',
        `attachment; filename="statement-${session.environment.toLowerCase()}-${period.month}.csv"`,
      )
      .send(statementCsv(statement));
  }
}
