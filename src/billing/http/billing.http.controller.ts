import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentActor, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import type { Actor } from '../../shared/actor';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { StartCheckout } from '../application/commands/start-checkout.command';
import { BillingSummary } from '../application/queries/billing-summary.query';
import { CheckoutById } from '../application/queries/checkout-by-id.query';
import { BillingResponse, CheckoutResponse, StartCheckoutDto } from './checkout.dto';

@ApiTags('billing')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/billing')
export class BillingHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The wallet balance (sms_left) and the published packages' })
  @ApiOkResponse({ type: BillingResponse })
  @ApiErrors()
  summary(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new BillingSummary(principal.walletId, principal.environment));
  }

  @Post('checkout')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start a checkout for a package; send the shopper to checkout_url',
    description:
      'success_url and cancel_url must be absolute http(s) URLs; the browser returns there with checkout_id added to the query.',
  })
  @ApiOkResponse({ type: CheckoutResponse })
  @ApiErrors(
    { 400: ['unknown_package', 'invalid_url', 'payments_unavailable (no provider for the environment)'] },
    { body: true },
  )
  start(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Body() body: StartCheckoutDto,
  ) {
    return this.commands.execute(
      new StartCheckout(
        principal,
        { packageId: body.package_id, successUrl: body.success_url, cancelUrl: body.cancel_url ?? null },
        actor,
      ),
    );
  }

  @Get('checkout/:id')
  @ApiOperation({
    summary:
      'Read a checkout: status pending | succeeded | failed | expired; sms is the credits added once succeeded',
  })
  @ApiOkResponse({ type: CheckoutResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  read(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new CheckoutById(principal, id));
  }
}
