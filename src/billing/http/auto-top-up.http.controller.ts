import { Body, Controller, Get, HttpCode, Put, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentActor, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import type { Actor } from '../../shared/actor';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { SetAutoTopUp } from '../application/commands/set-auto-top-up.command';
import { AutoTopUpSettings } from '../application/queries/auto-top-up-settings.query';
import { AutoTopUpDto, AutoTopUpResponse } from './auto-top-up.dto';

@ApiTags('wallet')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/wallet/auto_topup')
export class AutoTopUpHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Auto top-up: its threshold and package, the saved card it charges' })
  @ApiOkResponse({ type: AutoTopUpResponse })
  @ApiErrors()
  get(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new AutoTopUpSettings(principal.walletId));
  }

  @Put()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Sets auto top-up: when sms_left falls to or below the threshold, the saved card is charged for the package (at most one in flight, 3 a day; 3 failures in a row turn it off)',
  })
  @ApiOkResponse({ type: AutoTopUpResponse })
  @ApiErrors(
    { 400: ['invalid_threshold', 'unknown_package', 'parameter_missing'], 409: ['no_saved_card'] },
    { body: true },
  )
  set(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: AutoTopUpDto) {
    return this.commands.execute(
      new SetAutoTopUp(
        principal.walletId,
        { enabled: body.enabled, threshold: body.threshold, packageId: body.package_id },
        actor,
      ),
    );
  }
}
