import type { DomainError } from '../../shared/domain-error';
import type { Result } from '../../shared/result';
import * as wallet from './wallet.decider';
import { smsLeft, Wallet, WalletDraft } from './wallet.decider';
import type { CreditSource, Environment, WalletEvent } from './wallet.events';

/**
 * What can be asked of a wallet, as plain data: a command can wait in a queue, be batched with
 * others on the same wallet, or cross to the thread that owns the wallet, and be decided when
 * its turn comes against the wallet as it then stands.
 */
export type WalletCommand =
  | {
      readonly type: 'OpenWallet';
      readonly walletId: string;
      readonly accountId: string;
      readonly environment: Environment;
      readonly initialCredits: number;
    }
  | {
      readonly type: 'AddCredits';
      readonly sourceId: string;
      readonly source: CreditSource;
      readonly sms: number;
      readonly reason: string;
    }
  | {
      readonly type: 'ReserveCredits';
      readonly messageId: string;
      readonly sms: number;
      /** The server instance making the send (recorded on the reservation). */
      readonly instance?: string;
    }
  | {
      /** A batch send's reservations: one decision, all of them or none. */
      readonly type: 'ReserveBatch';
      readonly reservations: readonly { readonly messageId: string; readonly sms: number }[];
      readonly instance?: string;
    }
  | {
      /** A campaign's credits, all at once (402 and nothing otherwise). */
      readonly type: 'HoldCredits';
      readonly holdId: string;
      readonly sms: number;
      readonly instance?: string;
    }
  | {
      /** A chunk of a campaign's messages, reserved from its hold: all of them or none. */
      readonly type: 'ReserveFromHold';
      readonly holdId: string;
      readonly reservations: readonly { readonly messageId: string; readonly sms: number }[];
      readonly instance?: string;
    }
  | { readonly type: 'ReleaseHold'; readonly holdId: string; readonly reason: string }
  | { readonly type: 'CaptureReservation'; readonly messageId: string }
  | { readonly type: 'ReleaseReservation'; readonly messageId: string; readonly reason: string };

/** Decides a command against the wallet: the events to record, or the business refusal. */
export function decideWalletCommand(
  w: wallet.Wallet,
  command: WalletCommand,
  now: Date,
): Result<WalletEvent[], DomainError> {
  switch (command.type) {
    case 'OpenWallet':
      return wallet.open(w, { ...command, now });
    case 'AddCredits':
      return wallet.addCredits(w, { ...command, now });
    case 'ReserveCredits':
      return wallet.reserve(w, { ...command, now });
    case 'ReserveBatch':
      return wallet.reserveAll(w, { ...command, now });
    case 'HoldCredits':
      return wallet.hold(w, { ...command, now });
    case 'ReserveFromHold':
      return wallet.reserveFromHold(w, { ...command, now });
    case 'ReleaseHold':
      return wallet.releaseHold(w, command);
    case 'CaptureReservation':
      return wallet.capture(w, command);
    case 'ReleaseReservation':
      return wallet.release(w, command);
  }
}

export interface DecidedCommand {
  readonly result: Result<WalletEvent[], DomainError>;
  /** What the wallet could still send right after this command. */
  readonly smsLeft: number;
}

/**
 * Decides commands in turn, each on the wallet as the ones before it leave it: a batch from the
 * wallet's queue. The wallet is copied once for the whole batch, however many reservations it
 * holds, and is not changed itself.
 */
export function decideAll(
  w: Wallet,
  commands: readonly WalletCommand[],
  now: Date,
): { readonly wallet: Wallet; readonly decided: readonly DecidedCommand[] } {
  const draft = new WalletDraft(w);
  const decided = commands.map((command) => {
    const result = decideWalletCommand(draft, command, now);
    if (result.ok) for (const event of result.value) draft.apply(event);
    return { result, smsLeft: smsLeft(draft) };
  });
  return { wallet: draft.done(), decided };
}
