import { fold } from '../../shared/decider';
import {
  DispatchLeaseEvent,
  dispatchLeasesDecider,
  dispatchLeasesSnapshots,
  partitionOf,
  release,
  renew,
} from './dispatch-leases.decider';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const LEASE = 15_000;

const given = (...events: DispatchLeaseEvent[]) => fold(dispatchLeasesDecider, events);
const renewed = (
  holder: string,
  partitions: number[],
  atMs: number,
  leaseMs = LEASE,
): DispatchLeaseEvent => ({
  type: 'DispatchLeasesRenewed',
  data: { holder, partitions, until: at(atMs + leaseMs).toISOString(), at: at(atMs).toISOString() },
});
/** What a renewal gives `holder` at `atMs`. */
function grant(
  events: DispatchLeaseEvent[],
  holder: string,
  atMs: number,
  busy: number[] = [],
  dead: string[] = [],
): number[] {
  const decision = renew(given(...events), {
    holder,
    partitionCount: 8,
    leaseMs: LEASE,
    now: at(atMs),
    busy: new Set(busy),
    dead: new Set(dead),
  });
  if (!decision.ok) throw new Error('renewals are never refused');
  return [...decision.value[0].data.partitions];
}

describe('dispatch leases', () => {
  it('a lone dispatcher takes every partition', () => {
    expect(grant([], 'a', 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('a second dispatcher gets nothing while the first holds all, and says it is alive', () => {
    expect(grant([renewed('a', [0, 1, 2, 3, 4, 5, 6, 7], 0)], 'b', 1_000)).toEqual([]);
  });

  it('the holder then lets the others take their share, keeping what it is still submitting', () => {
    const history = [renewed('a', [0, 1, 2, 3, 4, 5, 6, 7], 0), renewed('b', [], 1_000)];
    expect(grant(history, 'a', 5_000)).toEqual([0, 1, 2, 3]);
    expect(grant(history, 'a', 5_000, [6])).toEqual([0, 1, 2, 3, 6]);
    const handedOver = [...history, renewed('a', [0, 1, 2, 3], 5_000)];
    expect(grant(handedOver, 'b', 6_000)).toEqual([4, 5, 6, 7]);
  });

  it('a holder whose lease ran out (it died) loses its partitions to the others at once', () => {
    const history = [renewed('a', [0, 1, 2, 3], 0), renewed('b', [4, 5, 6, 7], 0)];
    expect(grant(history, 'b', 14_000)).toEqual([4, 5, 6, 7]); // a is still alive
    expect(grant(history, 'b', 15_001)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('a holder known dead (its heartbeat stopped) loses its partitions at once, lease or not', () => {
    const history = [renewed('a', [0, 1, 2, 3], 0), renewed('b', [4, 5, 6, 7], 0)];
    expect(grant(history, 'b', 1_000, [], ['a'])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Only the dead one's: a live holder's partitions stay with it.
    const three = [...history, renewed('c', [], 500)];
    expect(grant(three, 'c', 1_000, [], ['a'])).toEqual([0, 1, 2, 3]);
    expect(grant(three, 'c', 1_000, [], ['x'])).toEqual([]);
  });

  it('a released partition is free at once for the others', () => {
    const history = [renewed('a', [0, 1, 2, 3], 0), renewed('b', [4, 5, 6, 7], 0)];
    const decision = release(given(...history), { holder: 'a', now: at(1_000) });
    expect(decision.ok && decision.value).toHaveLength(1);
    if (decision.ok)
      expect(grant([...history, ...decision.value], 'b', 1_001)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(release(given(renewed('b', [0], 0)), { holder: 'a', now: at(1_000) })).toEqual({
      ok: true,
      value: [],
    });
  });

  it('never gives one partition to two live holders', () => {
    // Any order of renewals by three dispatchers, at any times: live leases never overlap.
    const holders = ['a', 'b', 'c'];
    let events: DispatchLeaseEvent[] = [];
    for (let step = 0; step < 200; step++) {
      const holder = holders[(step * 7) % 3];
      const now = step * 1_700;
      events = [...events, renewed(holder, grant(events, holder, now), now)];
      const state = given(...events);
      const live = [...state.partitions].filter(([, lease]) => Date.parse(lease.until) > T0 + now);
      expect(new Set(live.map(([p]) => p)).size).toBe(live.length);
    }
  });

  it('snapshots round-trip', () => {
    const state = given(renewed('a', [0, 1], 0), renewed('b', [2], 0));
    expect(
      dispatchLeasesSnapshots.decode(JSON.parse(JSON.stringify(dispatchLeasesSnapshots.encode(state)))),
    ).toEqual(state);
  });

  it('spreads message ids over the partitions, the same way in every process', () => {
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 8000; i++) counts[partitionOf(`msg_${i.toString(36)}xyz`, 8)]++;
    for (const n of counts) expect(n).toBeGreaterThan(700);
    expect(partitionOf('msg_abc', 8)).toBe(partitionOf('msg_abc', 8));
  });
});
