import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { Result } from '../../shared/result';
import * as wallet from '../domain/wallet.decider';
import { CreditSource, Environment, walletStream } from '../domain/wallet.events';
import { WalletCommandQueue, WalletOutcome } from './wallet-command-queue';

export type WalletResult = Result<WalletOutcome, DomainError>;

/** Free credits a new TEST wallet opens with (API.md). */
export const TEST_WALLET_OPENING_CREDITS = 100;

/**
 * The wallet's commands, as every other context uses them: sends reserve, outcomes capture
 * or release, payments and operators add. Each is idempotent by its message or source id.
 */
@Injectable()
export class WalletService {
  private readonly queue: WalletCommandQueue;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.queue = new WalletCommandQueue(events, aggregates);
  }

  /** This process's wallet command queue: commands waiting, wallets with work. */
  queueDepth(): { commands: number; wallets: number } {
    return this.queue.depth();
  }

  open(walletId: string, accountId: string, environment: Environment): Promise<WalletResult> {
    const initialCredits = environment === 'TEST' ? TEST_WALLET_OPENING_CREDITS : 0;
    return this.queue.execute(walletId, (w) =>
      wallet.open(w, { walletId, accountId, environment, initialCredits, now: this.clock.now() }),
    );
  }

  addCredits(
    walletId: string,
    cmd: { sourceId: string; source: CreditSource; sms: number; reason: string },
  ): Promise<WalletResult> {
    return this.queue.execute(walletId, (w) => wallet.addCredits(w, { ...cmd, now: this.clock.now() }));
  }

  reserve(walletId: string, messageId: string, sms: number): Promise<WalletResult> {
    return this.queue.execute(walletId, (w) => wallet.reserve(w, { messageId, sms, now: this.clock.now() }));
  }

  capture(walletId: string, messageId: string): Promise<WalletResult> {
    return this.queue.execute(walletId, (w) => wallet.capture(w, { messageId }));
  }

  release(walletId: string, messageId: string, reason: string): Promise<WalletResult> {
    return this.queue.execute(walletId, (w) => wallet.release(w, { messageId, reason }));
  }

  /** The wallet folded from its events alone (from its newest snapshot). */
  async load(walletId: string): Promise<wallet.Wallet | null> {
    const loaded = await this.aggregates.load(
      walletStream(walletId),
      wallet.walletDecider,
      wallet.walletSnapshots,
    );
    return loaded.revision < 0n ? null : loaded.state;
  }

  /** Folds every event from revision zero, ignoring snapshots: what an auditor recomputes. */
  async replay(walletId: string): Promise<{ wallet: wallet.Wallet; events: number } | null> {
    let state = wallet.initialState();
    let count = 0;
    let from = 0n;
    for (;;) {
      const page = await this.events.readStream(walletStream(walletId), { fromRevision: from, limit: 5000 });
      for (const event of page)
        state = wallet.evolve(state, event as unknown as Parameters<typeof wallet.evolve>[1]);
      count += page.length;
      if (page.length < 5000) break;
      from = page[page.length - 1].revision + 1n;
    }
    return count === 0 ? null : { wallet: state, events: count };
  }

  /** Forgets cached wallet state (another writer changed the store underneath this process). */
  forgetCache(): void {
    this.queue.forget();
  }
}
