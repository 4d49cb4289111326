import type { Clock } from '../../shared/clock';
import type { DomainError } from '../../shared/domain-error';
import { AggregateStore, Loaded } from '../../shared/event-store/aggregate-store';
import {
  AppendResult,
  ConcurrencyError,
  EventStore,
  StreamAppend,
} from '../../shared/event-store/event-store.port';
import { RecentlyUsed } from '../../shared/recently-used';
import { err, ok, Result } from '../../shared/result';
import { decideAll, WalletCommand } from '../domain/wallet.commands';
import { foldSettlements } from '../domain/settlements';
import { Wallet, walletDecider, walletSnapshots } from '../domain/wallet.decider';
import { walletStream, WalletEvent } from '../domain/wallet.events';

export interface WalletOutcome {
  readonly events: readonly WalletEvent[];
  /** What the wallet could still send right after this command. */
  readonly smsLeft: number;
  /** Global position of the append that recorded the events; null when nothing was recorded. */
  readonly position: bigint | null;
}

export type WalletResult = Result<WalletOutcome, DomainError>;

export interface WalletQueueDepth {
  readonly commands: number;
  readonly wallets: number;
}

/**
 * Runs wallet commands: here (WalletCommandQueue), or in the thread that owns the wallets.
 * `alongside` is other streams' appends that belong to the command (a send's MessageQueued, a
 * batch's messages and its record): written with the wallet's events when the command records
 * any, and not at all otherwise.
 */
export type Alongside = StreamAppend | readonly StreamAppend[];

export interface WalletCommandExecutor {
  execute(walletId: string, command: WalletCommand, alongside?: Alongside): Promise<WalletResult>;
  /** What waits in this process: commands, and wallets with commands waiting or being recorded. */
  depth(): WalletQueueDepth;
  /** Drops cached wallet state (another writer changed the store underneath). */
  forget(walletId?: string): void;
}

interface Pending {
  readonly command: WalletCommand;
  readonly alongside: readonly StreamAppend[];
  readonly resolve: (result: WalletResult) => void;
  readonly reject: (error: unknown) => void;
}

interface Decided {
  readonly pending: Pending;
  readonly result: WalletResult;
  /** Events this command adds to the wallet's append. */
  readonly recorded: boolean;
}

const MAX_BATCH = 256;
const NOTHING_ALONGSIDE: readonly StreamAppend[] = [];

const alongsideList = (alongside: Alongside | undefined): readonly StreamAppend[] =>
  alongside === undefined ? NOTHING_ALONGSIDE : 'streamId' in alongside ? [alongside] : alongside;
const MAX_CACHED_WALLETS = 10_000;

/**
 * How long a settlement (a capture or a release) may wait for a write to ride along with. Nothing
 * waits on a settlement but the process that asked for it, while each write of its own is a
 * commit: at a steady 200 sends/s, one commit per message more on the thread that answers sends.
 */
export const SETTLEMENT_DELAY_MS = 25;

/** Settling a reservation: the credits are spent or given back either way, later is fine. */
const isSettlement = (command: WalletCommand) =>
  command.type === 'CaptureReservation' || command.type === 'ReleaseReservation';

interface Deferred {
  readonly walletId: string;
  readonly pending: Pending;
}

/**
 * Serialises every command on one wallet inside this process and records the commands that
 * queued up meanwhile in one append: a hot wallet takes hundreds of reservations a second
 * without conflicts. Another process writing the same wallet (a second instance, the CLI)
 * shows up as a newer revision or a ConcurrencyError, and the batch is decided again on the
 * fresh state, so expected revisions keep every process honest.
 *
 * A command's `alongside` append goes into the same write as the wallet's events. Where the
 * store writes several streams atomically, a send's reservation and its message are recorded
 * together or not at all; elsewhere the wallet's append comes first and each message append
 * after it on its own, and a message that could not be written leaves an orphan reservation
 * for the orphan reaper (OrphanReaper) to release.
 *
 * Settlements wait up to `settlementDelayMs` for the next other command, and then go with it: on
 * its wallet, in its batch (one append); on other wallets, in the same turn of the event loop,
 * which the store commits as one (GroupCommit).
 */
export class WalletCommandQueue implements WalletCommandExecutor {
  private readonly queues = new Map<string, Pending[]>();
  private readonly cache = new RecentlyUsed<string, Loaded<Wallet>>(MAX_CACHED_WALLETS);
  private waiting = 0;
  private deferred: Deferred[] = [];
  private deferredUntil: NodeJS.Timeout | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly aggregates: AggregateStore,
    private readonly clock: Clock,
    private readonly settlementDelayMs = SETTLEMENT_DELAY_MS,
  ) {}

  execute(walletId: string, command: WalletCommand, alongside?: Alongside): Promise<WalletResult> {
    return new Promise((resolve, reject) => {
      this.waiting++;
      const pending: Pending = { command, alongside: alongsideList(alongside), resolve, reject };
      if (isSettlement(command) && this.settlementDelayMs > 0) {
        this.deferred.push({ walletId, pending });
        this.deferredUntil ??= setTimeout(() => this.run([]), this.settlementDelayMs);
        return;
      }
      this.run([{ walletId, pending }]);
    });
  }

  /** Queues the settlements waiting and then `commands`, and starts every wallet's drain after. */
  private run(commands: readonly Deferred[]): void {
    if (this.deferredUntil) clearTimeout(this.deferredUntil);
    this.deferredUntil = null;
    const started: string[] = [];
    for (const { walletId, pending } of [...this.deferred.splice(0), ...commands]) {
      const queue = this.queues.get(walletId);
      if (queue) queue.push(pending);
      else {
        this.queues.set(walletId, [pending]);
        started.push(walletId);
      }
    }
    for (const walletId of started) void this.drain(walletId);
  }

  depth(): WalletQueueDepth {
    return { commands: this.waiting, wallets: this.queues.size };
  }

  forget(walletId?: string): void {
    if (walletId) this.cache.delete(walletId);
    else this.cache.clear();
  }

  /** The wallet as stored now: the cached state with whatever the stream gained since folded in. */
  async current(walletId: string): Promise<Loaded<Wallet>> {
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

  private async drain(walletId: string): Promise<void> {
    const queue = this.queues.get(walletId)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      this.waiting -= batch.length;
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
      const { wallet: after, decided } = this.decide(current.state, batch);
      if (cached && decided.some((d) => !d.recorded)) {
        trustCache = false;
        continue;
      }
      const recorded = decided.filter((d) => d.recorded);
      if (recorded.length === 0) {
        for (const d of decided) d.pending.resolve(d.result);
        return;
      }
      try {
        await this.record(walletId, current, after, decided);
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) {
          this.cache.delete(walletId);
          throw error;
        }
        if (error.streamId !== walletStream(walletId)) {
          // Another stream of the write already exists (a message recorded before): that
          // command fails alone, the others are decided again without it.
          const failed = batch.findIndex((p) => p.alongside.some((a) => a.streamId === error.streamId));
          if (failed < 0) throw error;
          batch[failed].reject(error);
          batch = batch.filter((_, i) => i !== failed);
          if (batch.length === 0) return;
          continue;
        }
        trustCache = false; // current() reads what the stream gained since
        if (cached) continue;
        if (attempt++ >= 20) throw error;
      }
    }
  }

  /** Each command in turn against the wallet as the ones before it leave it. */
  private decide(start: Wallet, batch: readonly Pending[]): { wallet: Wallet; decided: Decided[] } {
    const { wallet, decided } = decideAll(
      start,
      batch.map((p) => p.command),
      this.clock.now(),
    );
    return {
      wallet,
      decided: decided.map(({ result, smsLeft }, i) =>
        result.ok
          ? {
              pending: batch[i],
              result: ok({ events: result.value, smsLeft, position: null }),
              recorded: result.value.length > 0,
            }
          : { pending: batch[i], result: err(result.error), recorded: false },
      ),
    };
  }

  /** Writes the batch's events and what goes alongside them, then answers each command. */
  private async record(
    walletId: string,
    current: Loaded<Wallet>,
    state: Wallet,
    decided: readonly Decided[],
  ): Promise<void> {
    const stream = walletStream(walletId);
    const events = foldSettlements(
      decided.flatMap((d) => (d.recorded && d.result.ok ? d.result.value.events : [])),
    );
    const walletAppend: StreamAppend = {
      streamId: stream,
      events,
      expected: current.revision < 0n ? 'no_stream' : current.revision,
    };
    const alongside = decided.flatMap((d) => (d.recorded ? d.pending.alongside : NOTHING_ALONGSIDE));
    let appended: AppendResult;
    const alongsideResults = new Map<StreamAppend, Promise<AppendResult>>();
    if (this.events.atomicMultiStreamAppends || alongside.length === 0) {
      const results = await this.events.appendAll([walletAppend, ...alongside]);
      appended = results[0];
      alongside.forEach((a, i) => alongsideResults.set(a, Promise.resolve(results[i + 1])));
    } else {
      appended = await this.events.append(stream, events, walletAppend.expected);
      for (const a of alongside) {
        alongsideResults.set(a, this.events.append(a.streamId, a.events, a.expected));
      }
    }
    this.cache.set(walletId, { state, revision: appended.nextExpectedRevision });
    await this.aggregates.maybeSnapshot(
      stream,
      state,
      current.revision,
      appended.nextExpectedRevision,
      walletSnapshots,
    );
    for (const { pending, result, recorded } of decided) {
      if (!recorded || !result.ok) {
        pending.resolve(result);
        continue;
      }
      const answered = ok({ ...result.value, position: appended.position });
      const written = writtenAlongside(pending.alongside, alongsideResults);
      if (!written) pending.resolve(answered);
      else
        written.then(
          (r) => pending.resolve(ok({ ...answered.value, position: r.position })),
          (error) => pending.reject(error),
        );
    }
  }
}

/** When a command's other appends are written: the last of them (null when it has none). */
function writtenAlongside(
  appends: readonly StreamAppend[],
  results: ReadonlyMap<StreamAppend, Promise<AppendResult>>,
): Promise<AppendResult> | null {
  if (appends.length === 0) return null;
  if (appends.length === 1) return results.get(appends[0])!;
  return Promise.all(appends.map((a) => results.get(a)!)).then((all) => all[all.length - 1]);
}
