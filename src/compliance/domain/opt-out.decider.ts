import type { Decider } from '../../shared/decider';
import { ok, Result } from '../../shared/result';
import type { OptOutEvent, OptOutSource } from './compliance.events';

/** One recipient on one wallet's list: opted out or not, and the newest inbound already applied. */
export interface OptOutState {
  readonly optedOut: boolean;
  readonly since: string | null;
  readonly source: OptOutSource | null;
  /** Log position of the newest inbound message applied: an older one is a replay. */
  readonly inboundPosition: bigint;
}

export const optOutDecider: Decider<OptOutState, OptOutEvent> = {
  initialState: () => ({ optedOut: false, since: null, source: null, inboundPosition: -1n }),
  evolve(state, event) {
    const inboundPosition = event.data.inbound ? BigInt(event.data.inbound.position) : state.inboundPosition;
    if (event.type === 'RecipientOptedOut')
      return { optedOut: true, since: event.data.at, source: event.data.source, inboundPosition };
    return { optedOut: false, since: null, source: null, inboundPosition };
  },
};

export interface OptOutChangeCommand {
  readonly walletId: string;
  readonly phoneNumber: string;
  readonly source: OptOutSource;
  readonly inbound?: { readonly id: string; readonly position: bigint };
  readonly now: Date;
}

type Decision = Result<OptOutEvent[], never>;

/** Idempotent both ways: the list says what it already says, and an inbound is applied once. */
export function optOut(state: OptOutState, cmd: OptOutChangeCommand): Decision {
  if (alreadyApplied(state, cmd) || state.optedOut) return ok([]);
  return ok([{ type: 'RecipientOptedOut', data: changeData(cmd) }]);
}

export function optIn(state: OptOutState, cmd: OptOutChangeCommand): Decision {
  if (alreadyApplied(state, cmd) || !state.optedOut) return ok([]);
  return ok([{ type: 'RecipientOptedIn', data: changeData(cmd) }]);
}

const alreadyApplied = (state: OptOutState, cmd: OptOutChangeCommand) =>
  cmd.inbound !== undefined && cmd.inbound.position <= state.inboundPosition;

const changeData = (cmd: OptOutChangeCommand) => ({
  walletId: cmd.walletId,
  phoneNumber: cmd.phoneNumber,
  source: cmd.source,
  inbound: cmd.inbound ? { id: cmd.inbound.id, position: cmd.inbound.position.toString() } : null,
  at: cmd.now.toISOString(),
});
