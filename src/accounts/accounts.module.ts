import { Global, Module } from '@nestjs/common';
import { ProjectionsService } from '../shared/projections/projections.service';
import { WalletModule } from '../wallet/wallet.module';
import { accountProvisioner } from './application/account-provisioner.process';
import { AccountsService } from './application/accounts.service';
import { ApiKeyGuard } from './http/api-key.guard';
import { accountsProjection } from './projections/accounts.projection';

/** Global so every context's controllers can use ApiKeyGuard. */
@Global()
@Module({
  imports: [WalletModule],
  providers: [AccountsService, ApiKeyGuard],
  exports: [AccountsService, ApiKeyGuard],
})
export class AccountsModule {
  constructor(projections: ProjectionsService, accounts: AccountsService) {
    projections.register(accountsProjection, accountProvisioner(accounts));
  }
}
