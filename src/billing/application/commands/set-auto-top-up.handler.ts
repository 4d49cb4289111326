import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { DomainError, invalid } from '../../../shared/domain-error';
import { ProjectionsService } from '../../../shared/projections/projections.service';
import { WalletCareService } from '../../../wallet/application/wallet-care.service';
import { AutoTopUps } from '../auto-top-ups.service';
import { AutoTopUpSettings, AutoTopUpView } from '../queries/auto-top-up-settings.query';
import { SetAutoTopUp } from './set-auto-top-up.command';

@CommandHandler(SetAutoTopUp)
export class SetAutoTopUpHandler implements ICommandHandler<SetAutoTopUp, AutoTopUpView> {
  constructor(
    private readonly care: WalletCareService,
    private readonly topUps: AutoTopUps,
    private readonly projections: ProjectionsService,
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ walletId, settings, actor }: SetAutoTopUp): Promise<AutoTopUpView> {
    const before = (await this.care.view(walletId))?.autoTopUp ?? null;
    const threshold = settings.threshold ?? before?.threshold;
    const packageId = settings.packageId ?? before?.packageId;
    if (threshold === undefined)
      throw invalid('parameter_missing', 'threshold is required: a number of credits', 'threshold');
    if (packageId === undefined)
      throw invalid(
        'parameter_missing',
        'package_id is required: GET /v1/billing lists the packages',
        'package_id',
      );
    if (!this.config.packages.some((p) => p.id === packageId)) {
      throw invalid(
        'unknown_package',
        `No package ${JSON.stringify(packageId).slice(0, 80)}; GET /v1/billing lists them`,
        'package_id',
      );
    }
    if (settings.enabled) {
      await this.projections.catchUp(['saved-cards']);
      if (!(await this.topUps.savedCard(walletId))) {
        throw new DomainError(
          'conflict',
          'no_saved_card',
          'Auto top-up charges the card of an earlier payment, and this wallet has none: buy credits once with a card first',
        );
      }
    }
    await this.care.setAutoTopUp(walletId, { enabled: settings.enabled, threshold, packageId }, actor);
    return this.queries.execute(new AutoTopUpSettings(walletId));
  }
}
