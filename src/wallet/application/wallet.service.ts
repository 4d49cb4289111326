import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CLOCK, Clock } from '../../shared/clock';
import { AggregateStore } from '../../shared/event-store/aggregate-store';
import { EVENT_STORE, EventStore, StreamAppend } from '../../shared/event-store/event-store.port';
import { InstanceIdentity } from '../../shared/instances/instance-identity';
import { THREAD_BRIDGE, ThreadBridge } from '../../shared/threads/thread-bridge';
import * as wallet from '../domain/wallet.decider';
import { CreditSource, Environment, WalletEvent, walletStream } from '../domain/wallet.events';
import {
  Alongside,
  WalletCommandExecutor,
  WalletCommandQueue,
  WalletQueueDepth,
  WalletResult,
} from './wallet-command-queue';
import { RemoteWalletCommands, serveWalletCommands } from './remote-wallet-commands';

export type { WalletResult };

/** A wallet event as the log holds it. */
export type RecordedWalletEvent = WalletEvent & { readonly revision: bigint; readonly recordedAt: Date };

/** Free credits a new TEST wallet opens with (API.md). */
export const TEST_WALLET_OPENING_CREDITS = 100;

/**
 * The wallet's commands, as every other context uses them: sends reserve, outcomes capture
 * or release, payments and operators add. Each is idempotent by its message or source id, and
 * each is plain data run by the executor. In a server with a worker thread, the HTTP thread's
 * queue runs them all (the worker's are sent to it), so one thread writes the wallet streams.
 */
@Injectable()
export class WalletService {
  private readonly executor: WalletCommandExecutor;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(THREAD_BRIDGE) bridge: ThreadBridge,
    private readonly instance: InstanceIdentity,
  ) {
    if (config.threadRole === 'worker') {
      this.executor = new RemoteWalletCommands(bridge);
      return;
    }
    this.executor = new WalletCommandQueue(events, aggregates, clock);
    if (config.threadRole === 'api') serveWalletCommands(bridge, this.executor);
  }

  open(walletId: string, accountId: string, environment: Environment): Promise<WalletResult> {
    const initialCredits = environment === 'TEST' ? TEST_WALLET_OPENING_CREDITS : 0;
    return this.executor.execute(walletId, {
      type: 'OpenWallet',
      walletId,
      accountId,
      environment,
      initialCredits,
    });
  }

  addCredits(
    walletId: string,
    cmd: { sourceId: string; source: CreditSource; sms: number; reason: string },
  ): Promise<WalletResult> {
    return this.executor.execute(walletId, { type: 'AddCredits', ...cmd });
  }

  /**
   * Reserves the message's credits. `message` is the message stream's first append (and any
   * append that belongs with it): recorded with the reservation when the reservation is (in one
   * write where the store allows it), never without it.
   */
  reserve(walletId: string, messageId: string, sms: number, message?: Alongside): Promise<WalletResult> {
    return this.executor.execute(
      walletId,
      { type: 'ReserveCredits', messageId, sms, instance: this.instance.id },
      message,
    );
  }

  /**
   * Reserves a batch's messages in one decision, all or none (402 when they do not fit together).
   * `alongside` (the messages' first appends, the batch's record) is recorded with the
   * reservations, in one write where the store allows it, and never without them.
   */
  reserveBatch(
    walletId: string,
    reservations: readonly { messageId: string; sms: number }[],
    alongside: readonly StreamAppend[],
  ): Promise<WalletResult> {
    return this.executor.execute(
      walletId,
      { type: 'ReserveBatch', reservations, instance: this.instance.id },
      alongside,
    );
  }

  /**
   * Holds a campaign's credits in one decision, all or none (402). `alongside` (the campaign's
   * record) is written with the hold, in one write where the store allows it, and never without it.
   */
  hold(
    walletId: string,
    holdId: string,
    sms: number,
    alongside: readonly StreamAppend[],
  ): Promise<WalletResult> {
    return this.executor.execute(
      walletId,
      { type: 'HoldCredits', holdId, sms, instance: this.instance.id },
      alongside,
    );
  }

  /**
   * Reserves a chunk of a campaign's messages from its hold, all or none; `alongside` (the
   * messages' first appends, the campaign's progress) is recorded with the reservations.
   */
  reserveFromHold(
    walletId: string,
    holdId: string,
    reservations: readonly { messageId: string; sms: number }[],
    alongside: readonly StreamAppend[],
  ): Promise<WalletResult> {
    return this.executor.execute(
      walletId,
      { type: 'ReserveFromHold', holdId, reservations, instance: this.instance.id },
      alongside,
    );
  }

  /** Gives back what is left of a hold (a campaign canceled or finished); idempotent. */
  releaseHold(walletId: string, holdId: string, reason: string): Promise<WalletResult> {
    return this.executor.execute(walletId, { type: 'ReleaseHold', holdId, reason });
  }

  capture(walletId: string, messageId: string): Promise<WalletResult> {
    return this.executor.execute(walletId, { type: 'CaptureReservation', messageId });
  }

  release(walletId: string, messageId: string, reason: string): Promise<WalletResult> {
    return this.executor.execute(walletId, { type: 'ReleaseReservation', messageId, reason });
  }

  /** This process's wallet command queue: commands waiting, wallets with work. */
  queueDepth(): WalletQueueDepth {
    return this.executor.depth();
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

  /** The wallet's sms_left as its stream now stands, with the revision it stands at. */
  async smsLeftNow(walletId: string): Promise<{ smsLeft: number; revision: bigint } | null> {
    const loaded = await this.aggregates.load(
      walletStream(walletId),
      wallet.walletDecider,
      wallet.walletSnapshots,
    );
    return loaded.revision < 0n ? null : { smsLeft: wallet.smsLeft(loaded.state), revision: loaded.revision };
  }

  /**
   * Folds every event from revision zero, ignoring snapshots: what an auditor recomputes.
   * `onProgress` hears the events folded so far after each page.
   */
  async replay(
    walletId: string,
    onProgress?: (events: number) => void,
  ): Promise<{ wallet: wallet.Wallet; events: number } | null> {
    let state = wallet.initialState();
    const count = await this.readAll(
      walletId,
      (page) => {
        for (const event of page) state = wallet.evolve(state, event);
      },
      onProgress,
    );
    return count === 0 ? null : { wallet: state, events: count };
  }

  /**
   * Hands every event of the wallet's stream, oldest first, to `visit` a page at a time (the
   * replay, the statement); answers how many there were.
   */
  async readAll(
    walletId: string,
    visit: (page: readonly RecordedWalletEvent[]) => void,
    onProgress?: (events: number) => void,
  ): Promise<number> {
    let count = 0;
    let from = 0n;
    for (;;) {
      const page = await this.events.readStream(walletStream(walletId), { fromRevision: from, limit: 5000 });
      visit(page as unknown as RecordedWalletEvent[]);
      count += page.length;
      onProgress?.(count);
      if (page.length < 5000) return count;
      from = page[page.length - 1].revision + 1n;
    }
  }

  /** Forgets cached wallet state (another writer changed the store underneath this process). */
  forgetCache(): void {
    this.executor.forget();
  }
}
