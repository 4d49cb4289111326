import { RequestPasswordResetHandler } from './application/commands/request-password-reset.handler';
import { ResetPasswordHandler } from './application/commands/reset-password.handler';
import { AccountEmailHandler } from './application/queries/account-email.handler';
import { Global, Module } from '@nestjs/common';
import { ProjectionsService } from '../shared/projections/projections.service';
import { WalletModule } from '../wallet/wallet.module';
import { accountProvisioner } from './application/account-provisioner.process';
import { AccountProvisioning } from './application/account-provisioning.service';
import { AccountReader } from './application/account-reader';
import { MintApiKeyHandler } from './application/commands/mint-api-key.handler';
import { RegisterAccountHandler } from './application/commands/register-account.handler';
import { RevokeApiKeyHandler } from './application/commands/revoke-api-key.handler';
import { AccountByEmailHandler } from './application/queries/account-by-email.handler';
import { ApiKeysHandler } from './application/queries/api-keys.handler';
import { PrincipalByApiKeyHandler } from './application/queries/principal-by-api-key.handler';
import { RecentPrincipals } from './application/recent-principals';
import { ApiKeyGuard } from './http/api-key.guard';
import { accountsProjection } from './projections/accounts.projection';
import { membersProjection } from './projections/members.projection';
import { AccountChanges } from './application/account-changes.service';
import { ApiKeyUsage } from './application/api-key-usage';
import { AcceptInvitationHandler } from './application/commands/accept-invitation.handler';
import { CancelInvitationHandler } from './application/commands/cancel-invitation.handler';
import { ChangeMemberRoleHandler } from './application/commands/change-member-role.handler';
import { InviteMemberHandler } from './application/commands/invite-member.handler';
import { RemoveMemberHandler } from './application/commands/remove-member.handler';
import { TransferOwnershipHandler } from './application/commands/transfer-ownership.handler';
import { AccountMembersHandler } from './application/queries/account-members.handler';
import { InvitationByTokenHandler } from './application/queries/invitation-by-token.handler';
import { LoginByCredentialsHandler } from './application/queries/login-by-credentials.handler';
import { SwitchableAccountsHandler } from './application/queries/switchable-accounts.handler';

/** Global so every context's controllers can use ApiKeyGuard (and the console its AccountReader). */
@Global()
@Module({
  imports: [WalletModule],
  providers: [
    AccountProvisioning,
    AccountReader,
    ApiKeyGuard,
    RegisterAccountHandler,
    MintApiKeyHandler,
    RevokeApiKeyHandler,
    AccountByEmailHandler,
    AccountEmailHandler,
    RequestPasswordResetHandler,
    ResetPasswordHandler,
    ApiKeysHandler,
    PrincipalByApiKeyHandler,
    RecentPrincipals,
    ApiKeyUsage,
    AccountChanges,
    InviteMemberHandler,
    CancelInvitationHandler,
    AcceptInvitationHandler,
    RemoveMemberHandler,
    ChangeMemberRoleHandler,
    TransferOwnershipHandler,
    AccountMembersHandler,
    InvitationByTokenHandler,
    LoginByCredentialsHandler,
    SwitchableAccountsHandler,
  ],
  exports: [AccountReader, ApiKeyGuard],
})
export class AccountsModule {
  constructor(projections: ProjectionsService, provisioning: AccountProvisioning) {
    projections.register(accountsProjection, membersProjection, accountProvisioner(provisioning));
  }
}
