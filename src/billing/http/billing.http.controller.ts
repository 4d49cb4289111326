import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WalletBalances } from '../../wallet/application/wallet-balances.query';
import { CheckoutsService } from '../application/checkouts.service';

@ApiTags('billing')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/billing')
export class BillingHttpController {
  constructor(
    private readonly balances: WalletBalances,
    private readonly checkouts: CheckoutsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The wallet balance (sms_left) and the published packages' })
  async summary(@CurrentPrincipal() principal: Principal) {
    const wallet = await this.balances.get(principal.walletId);
    return {
      object: 'billing',
      environment: principal.environment,
      sms_left: wallet?.smsLeft ?? 0,
      packages: this.config.packages.map((p) => ({
        object: 'package',
        id: p.id,
        name: p.name,
        amount: p.amount,
        currency: p.currency,
        sms: p.sms,
      })),
    };
  }

  @Post('checkout')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start a checkout for a package; send the shopper to checkout_url',
    description:
      'success_url and cancel_url must be absolute http(s) URLs; the browser returns there with checkout_id added to the query. ' +
      'Errors: 400 unknown_package, invalid_url, parameter_missing; 400 payments_unavailable when the environment has no payment provider configured (LIVE without Paystack).',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['package_id', 'success_url'],
      properties: {
        package_id: { type: 'string', example: 'pkg_starter' },
        success_url: { type: 'string', example: 'https://shop.example/paid?order=42' },
        cancel_url: { type: 'string', example: 'https://shop.example/cart' },
      },
    },
  })
  start(@CurrentPrincipal() principal: Principal, @Body() body: Record<string, unknown>) {
    return this.checkouts.start(principal, body);
  }

  @Get('checkout/:id')
  @ApiOperation({
    summary:
      'Read a checkout: status pending | succeeded | failed | expired; sms is the credits added once succeeded',
  })
  read(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.checkouts.get(principal, id);
  }
}
