import type { DomainError } from '../../shared/domain-error';
import { ConcurrencyError, EventStore } from '../../shared/event-store/event-store.port';
import { AggregateStore, Loaded } from '../../shared/event-store/aggregate-store';
import { RecentlyUsed } from '../../shared/recently-used';
import { ok, Result } from '../../shared/result';
import { evolve, Wallet, walletDecider, walletSnapshots } from '../domain/wallet.decider';
import { walletStream, WalletEvent } from '../domain/wallet.events';

/** A command decided against the wallet as it stands when its turn comes. */
export type WalletDecision = (wallet: Wallet) => Result<WalletEvent[], DomainError>;

export interface WalletOutcome {
  readonly events: readonly WalletEvent[];
  /** The wallet right after this command. */
  readonly wallet: Wallet;
  /** Global position of the append that recorded the events; null when nothing was recorded. */
  readonly position: bigint | null;
}

interface Pending {
  readonly decide: WalletDecision;
  readonly resolve: (result: Result<WalletOutcome, DomainError>) => void;
  readonly reject: (error: unknown) => void;
}

const MAX_BATCH = 256;
const MAX_CACHED_WALLETS = 10_000;

/**
 * Serialises every command on one wallet inside this process and records the commands that
 * queued up meanwhile in one append: a hot wallet takes hundreds of reservations a second
 * without conflicts. Another process writing the same wallet (a second instance, the CLI)
 * shows up as a newer revision or a ConcurrencyError, and the batch is decided again on the
 * fresh state, so expected revisions keep every process honest.
 */
export class WalletCommandQueue {
  private readonly queues = new Map<string, Pending[]>();
  private readonly cache = new RecentlyUsed<string, Loaded<Wallet>>(MAX_CACHED_WALLETS);

  constructor(
    private readonly events: EventStore,
    private readonly aggregates: AggregateStore,
  ) {}

  execute(walletId: string, decide: WalletDecision): Promise<Result<WalletOutcome, DomainError>> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(walletId);
      if (queue) {
        queue.push({ decide, resolve, reject });
        return;
      }
      this.queues.set(walletId, [{ decide, resolve, reject }]);
      void this.drain(walletId);
    });
  }

  /** Commands waiting for their wallet's turn, and wallets with work (for metrics). */
  depth(): { commands: number; wallets: number } {
    let commands = 0;
    for (const queue of this.queues.values()) commands += queue.length;
    return { commands, wallets: this.queues.size };
  }

  /** Drops the cached state, e.g. after a test rewrote the store underneath. */
  forget(walletId?: string): void {
    if (walletId) this.cache.delete(walletId);
    else this.cache.clear();
  }

  private async drain(walletId: string): Promise<void> {
    const queue = this.queues.get(walletId)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      try {
        await this.runBatch(walletId, batch);
      } catch (error) {
        this.cache.delete(walletId);
        for (const pending of batch) pending.reject(error);
      }
    }
    this.queues.delete(walletId);
  }

  private async runBatch(walletId: string, batch: Pending[]): Promise<void> {
    let trustCache = true;
    for (let attempt = 1; ;) {
      // Decided on the cached wallet without a read: the append at its revision fails if the
      // stream moved on. A refusal or a no-op records nothing, so it proves nothing: the batch
      // is then decided again on the wallet as stored, never refused on stale credit.
      const cached = trustCache ? this.cache.get(walletId) : undefined;
      const current = cached ?? (await this.current(walletId));
      let state = current.state;
      const outcomes: { result: Result<WalletOutcome, DomainError>; recorded: boolean }[] = [];
      const recorded: WalletEvent[] = [];
      for (const pending of batch) {
        const decision = pending.decide(state);
        if (!decision.ok) {
          outcomes.push({ result: decision, recorded: false });
          continue;
        }
        for (const event of decision.value) state = evolve(state, event);
        recorded.push(...decision.value);
        outcomes.push({
          result: ok({ events: decision.value, wallet: state, position: null }),
          recorded: decision.value.length > 0,
        });
      }
      if (cached && outcomes.some((o) => !o.recorded)) {
        trustCache = false;
        continue;
      }
      if (recorded.length === 0) {
        batch.forEach((pending, i) => pending.resolve(outcomes[i].result));
        return;
      }
      try {
        const stream = walletStream(walletId);
        const expected = current.revision < 0n ? 'no_stream' : current.revision;
        const appended = await this.events.append(stream, recorded, expected);
        this.cache.set(walletId, { state, revision: appended.nextExpectedRevision });
        await this.aggregates.maybeSnapshot(
          stream,
          state,
          current.revision,
          appended.nextExpectedRevision,
          walletSnapshots,
        );
        batch.forEach((pending, i) => {
          const { result, recorded: wrote } = outcomes[i];
          pending.resolve(result.ok && wrote ? ok({ ...result.value, position: appended.position }) : result);
        });
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) {
          this.cache.delete(walletId);
          throw error;
        }
        trustCache = false; // current() reads what the stream gained since
        if (cached) continue;
        if (attempt++ >= 20) throw error;
      }
    }
  }

  /**
   * The wallet as the store has it now: the cached state with whatever the stream gained since
   * folded in (usually nothing, read without parsing an event), so a refusal is never decided
   * on stale credit.
   */
  private async current(walletId: string): Promise<Loaded<Wallet>> {
    const cached = this.cache.get(walletId) ?? null;
    const loaded = await this.aggregates.loadFrom(
      walletStream(walletId),
      walletDecider,
      walletSnapshots,
      cached,
    );
    if (loaded.revision >= 0n) this.cache.set(walletId, loaded);
    return loaded;
  }
}
