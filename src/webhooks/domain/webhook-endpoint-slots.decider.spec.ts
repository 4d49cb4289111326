import { fold } from '../../shared/decider';
import {
  freeSlot,
  takeSlot,
  webhookEndpointSlotsDecider,
  WebhookEndpointSlots,
} from './webhook-endpoint-slots.decider';
import type { WebhookEndpointSlotEvent } from './webhook.events';

const now = new Date('2026-01-01T00:00:00Z');
const taken = (endpointId: string): WebhookEndpointSlotEvent => ({
  type: 'WebhookEndpointSlotTaken',
  data: { endpointId, takenAt: now.toISOString() },
});
const given = (...events: WebhookEndpointSlotEvent[]): WebhookEndpointSlots =>
  fold(webhookEndpointSlotsDecider, events);
const take = (
  state: WebhookEndpointSlots,
  endpointId: string,
  more: { stale?: string[]; existing?: string[] } = {},
) => takeSlot(state, { endpointId, max: 2, now, stale: more.stale ?? [], existing: more.existing ?? [] });

describe('webhook endpoint slots', () => {
  it('takes a free slot, once per endpoint', () => {
    expect(take(given(), 'we_a')).toEqual({ ok: true, value: [taken('we_a')] });
    expect(take(given(taken('we_a')), 'we_a')).toEqual({ ok: true, value: [] });
  });

  it('refuses a slot past the limit', () => {
    const full = take(given(taken('we_a'), taken('we_b')), 'we_c');
    expect(full.ok).toBe(false);
    if (!full.ok) expect(full.error.code).toBe('too_many_endpoints');
  });

  it('frees stale slots before judging', () => {
    const result = take(given(taken('we_a'), taken('we_b')), 'we_c', { stale: ['we_a', 'we_x'] });
    expect(result.ok && result.value.map((e) => [e.type, e.data.endpointId])).toEqual([
      ['WebhookEndpointSlotFreed', 'we_a'],
      ['WebhookEndpointSlotTaken', 'we_c'],
    ]);
  });

  it('counts the endpoints of a wallet from before slots were recorded', () => {
    expect(take(given(), 'we_c', { existing: ['we_a', 'we_b'] }).ok).toBe(false);
    const once = take(given(), 'we_b', { existing: ['we_a'] });
    expect(once.ok && once.value).toEqual([taken('we_a'), taken('we_b')]);
    // Once recorded, the read model's list is not consulted again.
    expect(take(given(taken('we_a')), 'we_b', { existing: ['we_x', 'we_y'] }).ok).toBe(true);
  });

  it('frees a held slot, idempotently', () => {
    expect(freeSlot(given(taken('we_a')), { endpointId: 'we_a', reason: 'deleted', now }).ok).toBe(true);
    expect(freeSlot(given(), { endpointId: 'we_a', reason: 'deleted', now })).toEqual({
      ok: true,
      value: [],
    });
  });
});
