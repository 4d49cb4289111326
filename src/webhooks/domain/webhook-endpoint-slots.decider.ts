import type { Decider } from '../../shared/decider';
import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { WebhookEndpointSlotEvent } from './webhook.events';

/** The wallet's endpoints that count against its limit, with when each slot was taken. */
export interface WebhookEndpointSlots {
  readonly taken: ReadonlyMap<string, string>;
  /** False until the stream has its first event (a wallet from before slots were recorded). */
  readonly recorded: boolean;
}

export const webhookEndpointSlotsDecider: Decider<WebhookEndpointSlots, WebhookEndpointSlotEvent> = {
  initialState: () => ({ taken: new Map(), recorded: false }),
  evolve(state, event) {
    const taken = new Map(state.taken);
    if (event.type === 'WebhookEndpointSlotTaken') taken.set(event.data.endpointId, event.data.takenAt);
    else taken.delete(event.data.endpointId);
    return { taken, recorded: true };
  },
};

export interface TakeSlot {
  readonly endpointId: string;
  readonly max: number;
  readonly now: Date;
  /**
   * Endpoints that count but should not: deleted or disabled ones whose slot a crash left taken,
   * or slots whose endpoint was never created. Freed before the new slot is judged.
   */
  readonly stale: readonly string[];
  /** For a wallet whose slots were never recorded: its endpoints from before, counted first. */
  readonly existing: readonly string[];
}

/** A slot for a new endpoint, or `too_many_endpoints` when the wallet has `max` already. */
export function takeSlot(
  state: WebhookEndpointSlots,
  cmd: TakeSlot,
): Result<WebhookEndpointSlotEvent[], DomainError> {
  if (state.taken.has(cmd.endpointId)) return ok([]);
  const at = cmd.now.toISOString();
  const events: WebhookEndpointSlotEvent[] = [];
  const taken = new Set(state.taken.keys());
  if (!state.recorded) {
    for (const endpointId of cmd.existing) {
      if (taken.has(endpointId)) continue;
      taken.add(endpointId);
      events.push({ type: 'WebhookEndpointSlotTaken', data: { endpointId, takenAt: at } });
    }
  }
  for (const endpointId of cmd.stale) {
    if (!taken.delete(endpointId)) continue;
    events.push({ type: 'WebhookEndpointSlotFreed', data: { endpointId, reason: 'stale', freedAt: at } });
  }
  if (taken.size >= cmd.max) {
    return err(
      invalid('too_many_endpoints', `A wallet has at most ${cmd.max} webhook endpoints; delete one first`),
    );
  }
  events.push({ type: 'WebhookEndpointSlotTaken', data: { endpointId: cmd.endpointId, takenAt: at } });
  return ok(events);
}

/** Idempotent: frees the endpoint's slot if it holds one. */
export function freeSlot(
  state: WebhookEndpointSlots,
  cmd: { endpointId: string; reason: string; now: Date },
): Result<WebhookEndpointSlotEvent[], DomainError> {
  if (!state.taken.has(cmd.endpointId)) return ok([]);
  return ok([
    {
      type: 'WebhookEndpointSlotFreed',
      data: { endpointId: cmd.endpointId, reason: cmd.reason, freedAt: cmd.now.toISOString() },
    },
  ]);
}
