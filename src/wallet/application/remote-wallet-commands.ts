import { err, ok } from '../../shared/result';
import type { ThreadBridge } from '../../shared/threads/thread-bridge';
import { decodeError, encodeError } from '../../shared/threads/thread-errors';
import type { WalletCommand } from '../domain/wallet.commands';
import type {
  Alongside,
  WalletCommandExecutor,
  WalletOutcome,
  WalletQueueDepth,
  WalletResult,
} from './wallet-command-queue';

interface ExecuteRequest {
  readonly walletId: string;
  readonly command: WalletCommand;
  readonly alongside?: Alongside;
}

/** A wallet result as it crosses threads: a refusal's DomainError keeps its kind and code. */
type Carried =
  { readonly ok: true; readonly value: WalletOutcome } | { readonly ok: false; readonly error: unknown };

const WALLET_EXECUTE = 'wallet.execute';

/**
 * The worker thread's wallet commands (settlement's captures and releases, payments' credits,
 * the orphan reaper's releases), run by the HTTP thread's queue: one thread writes the wallet
 * streams, so the sends' reservations and these never conflict on a hot wallet's revision.
 */
export class RemoteWalletCommands implements WalletCommandExecutor {
  private inFlight = 0;

  constructor(private readonly bridge: ThreadBridge) {}

  async execute(walletId: string, command: WalletCommand, alongside?: Alongside): Promise<WalletResult> {
    this.inFlight++;
    try {
      const carried = await this.bridge.request<Carried>(WALLET_EXECUTE, {
        walletId,
        command,
        alongside,
      } satisfies ExecuteRequest);
      return carried.ok ? ok(carried.value) : err(decodeError(carried.error) as never);
    } finally {
      this.inFlight--;
    }
  }

  depth(): WalletQueueDepth {
    return { commands: this.inFlight, wallets: 0 };
  }

  forget(): void {
    // The owner thread keeps the cache.
  }
}

/** The HTTP thread's side: runs the worker's wallet commands in its own queue. */
export function serveWalletCommands(bridge: ThreadBridge, executor: WalletCommandExecutor): void {
  bridge.handle<ExecuteRequest, Carried>(WALLET_EXECUTE, async ({ walletId, command, alongside }) => {
    const result = await executor.execute(walletId, command, alongside);
    return result.ok ? result : { ok: false, error: encodeError(result.error) };
  });
}
