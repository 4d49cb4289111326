import { Body, Controller, Get, Header, HttpCode, Put, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentActor, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import type { Actor } from '../../shared/actor';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { SetLowBalanceAlert } from '../application/commands/set-low-balance-alert.command';
import { WalletAlerts } from '../application/queries/wallet-alerts.query';
import { WalletStatement } from '../application/queries/wallet-statement.query';
import { statementCsv } from '../domain/statement';
import { StatementQuery, StatementResponse, WalletAlertsDto, WalletAlertsResponse } from './wallet-care.dto';

@ApiTags('wallet')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/wallet')
export class WalletCareHttpController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  @Get('statement')
  @ApiOperation({
    summary: "The wallet's statement per UTC day, folded from its own events (agrees with wallet:replay)",
  })
  @ApiOkResponse({ type: StatementResponse })
  @ApiErrors({ 400: ['invalid_date', 'invalid_period'] })
  async statement(@CurrentPrincipal() principal: Principal, @Query() query: StatementQuery) {
    const { credits: _credits, ...statement } = await this.queries.execute(
      new WalletStatement(principal.walletId, query),
    );
    return { object: 'statement', ...statement };
  }

  @Get('statement.csv')
  @Header('content-type', 'text/csv; charset=utf-8')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/csv')
  @ApiOperation({
    summary:
      'The statement as CSV: one row per purchase (its chk_ id), grant (its reason) and day of spending, between the opening and closing balances',
  })
  @ApiOkResponse({ description: 'date,type,reference,description,sms' })
  @ApiErrors({ 400: ['invalid_date', 'invalid_period'] })
  async statementCsv(@CurrentPrincipal() principal: Principal, @Query() query: StatementQuery) {
    return statementCsv(await this.queries.execute(new WalletStatement(principal.walletId, query)));
  }

  @Get('alerts')
  @ApiOperation({ summary: 'The low-balance alert' })
  @ApiOkResponse({ type: WalletAlertsResponse })
  @ApiErrors({})
  alerts(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new WalletAlerts(principal.walletId));
  }

  @Put('alerts')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Sets the low-balance alert: when sms_left falls to or below it, one wallet.balance_low webhook event and one e-mail, once per crossing',
  })
  @ApiOkResponse({ type: WalletAlertsResponse })
  @ApiErrors({ 400: ['invalid_threshold'] }, { body: true })
  setAlerts(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Body() body: WalletAlertsDto,
  ) {
    return this.commands.execute(new SetLowBalanceAlert(principal.walletId, body.low_balance, actor));
  }
}
