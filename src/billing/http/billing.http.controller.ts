import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WalletBalances } from '../../wallet/application/wallet-balances.query';

@ApiTags('billing')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/billing')
export class BillingHttpController {
  constructor(
    private readonly balances: WalletBalances,
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
      packages: this.config.packages.map((p) => ({ object: 'package', id: p.id, name: p.name, amount: p.amount, currency: p.currency, sms: p.sms })),
    };
  }
}
