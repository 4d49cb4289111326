import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { WalletCareService } from '../../../wallet/application/wallet-care.service';
import { cardSummary } from '../../domain/saved-card';
import { AutoTopUps } from '../auto-top-ups.service';
import { AutoTopUpSettings, AutoTopUpView } from './auto-top-up-settings.query';

@QueryHandler(AutoTopUpSettings)
export class AutoTopUpSettingsHandler implements IQueryHandler<AutoTopUpSettings, AutoTopUpView> {
  constructor(
    private readonly care: WalletCareService,
    private readonly topUps: AutoTopUps,
    private readonly projections: ProjectionsService,
  ) {}

  async execute({ walletId }: AutoTopUpSettings): Promise<AutoTopUpView> {
    // A card saved by a payment just made is recorded by the saved-cards process: wait for it.
    await this.projections.catchUp(['saved-cards']);
    const [view, saved] = await Promise.all([this.care.view(walletId), this.topUps.savedCard(walletId)]);
    return {
      object: 'auto_topup',
      enabled: view?.autoTopUp?.enabled ?? false,
      threshold: view?.autoTopUp?.threshold ?? null,
      package_id: view?.autoTopUp?.packageId ?? null,
      card: saved ? cardSummary(saved.card) : null,
      failures_in_a_row: view?.failuresInARow ?? 0,
      last_failure: view?.lastFailure ?? null,
    };
  }
}
