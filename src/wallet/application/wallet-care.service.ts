import type { Actor } from '../../shared/actor';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { notFound } from '../../shared/domain-error';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { newId } from '../../shared/ids';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import * as care from '../domain/wallet-care.decider';
import { walletCareStream } from '../domain/wallet-care.events';
import { WALLET_CARE, WALLET_CARE_PROJECTION, WalletCareView } from '../projections/wallet-care.projection';
import { WalletService } from './wallet.service';

type Outcome = Parameters<typeof care.recordTopUpOutcome>[1]['outcome'];

/**
 * A wallet's care (alerts, auto top-up): decided on its own stream, never on the wallet's, so the
 * send path does not carry it. The settings commands answer once the read model shows them.
 */
@Injectable()
export class WalletCareService {
  constructor(
    private readonly aggregates: AggregateStore,
    private readonly wallets: WalletService,
    private readonly projections: ProjectionsService,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async view(walletId: string): Promise<WalletCareView | null> {
    await this.projections.catchUp([WALLET_CARE_PROJECTION]);
    return this.reads.get<WalletCareView>(WALLET_CARE, walletId);
  }

  setLowBalanceAlert(walletId: string, threshold: number | null, actor?: Actor): Promise<void> {
    return this.setting(walletId, (c, whose) =>
      care.setLowBalanceAlert(c, { ...whose, threshold, actor, now: this.clock.now() }),
    );
  }

  setAutoTopUp(
    walletId: string,
    settings: { enabled: boolean; threshold: number; packageId: string },
    actor?: Actor,
  ): Promise<void> {
    return this.setting(walletId, (c, whose) =>
      care.setAutoTopUp(c, { ...whose, ...settings, actor, now: this.clock.now() }),
    );
  }

  /** What the balance watch saw; records the alert, its re-arming or a top-up to start, once. */
  async observe(walletId: string, smsLeft: number, walletRevision: bigint): Promise<void> {
    const recorded = await this.aggregates.handle(walletCareStream(walletId), care.walletCareDecider, (c) =>
      care.observeBalance(c, { smsLeft, walletRevision, topUpId: newId('chk'), now: this.clock.now() }),
    );
    if (!recorded.ok) throw recorded.error;
  }

  /** Billing's word on a top-up: credited, or failed. */
  async recordTopUpOutcome(walletId: string, topUpId: string, outcome: Outcome): Promise<void> {
    const recorded = await this.aggregates.handle(walletCareStream(walletId), care.walletCareDecider, (c) =>
      care.recordTopUpOutcome(c, { topUpId, outcome, now: this.clock.now() }),
    );
    if (!recorded.ok) throw recorded.error;
  }

  private async setting(
    walletId: string,
    decide: (
      c: care.WalletCare,
      whose: { walletId: string; accountId: string; environment: 'TEST' | 'LIVE' },
    ) => ReturnType<typeof care.setAutoTopUp>,
  ): Promise<void> {
    const wallet = await this.wallets.load(walletId);
    if (!wallet?.accountId || !wallet.environment) throw notFound('wallet');
    const whose = { walletId, accountId: wallet.accountId, environment: wallet.environment };
    const recorded = await this.aggregates.handle(walletCareStream(walletId), care.walletCareDecider, (c) =>
      decide(c, whose),
    );
    if (!recorded.ok) throw recorded.error;
    await this.projections.waitFor(recorded.value.position, [WALLET_CARE_PROJECTION]);
  }
}
