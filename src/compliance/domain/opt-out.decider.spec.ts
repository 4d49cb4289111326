import { fold } from '../../shared/decider';
import type { OptOutEvent } from './compliance.events';
import { optIn, optOut, optOutDecider, OptOutChangeCommand } from './opt-out.decider';

const now = new Date('2026-11-23T10:00:00Z');
const cmd = (overrides: Partial<OptOutChangeCommand> = {}): OptOutChangeCommand => ({
  walletId: 'wal_1',
  phoneNumber: '+233241234567',
  source: 'inbound',
  now,
  ...overrides,
});
const given = (...events: OptOutEvent[]) => fold(optOutDecider, events);
const decided = (result: ReturnType<typeof optOut>) => (result.ok ? result.value : []);

describe('opt-out decider', () => {
  it('opts a recipient out once, and back in once', () => {
    const out = decided(optOut(given(), cmd({ source: 'api' })));
    expect(out).toEqual([{ type: 'RecipientOptedOut', data: expect.objectContaining({ source: 'api' }) }]);
    expect(decided(optOut(given(...out), cmd()))).toEqual([]);
    const back = decided(optIn(given(...out), cmd()));
    expect(back.map((e) => e.type)).toEqual(['RecipientOptedIn']);
    expect(decided(optIn(given(...out, ...back), cmd()))).toEqual([]);
  });

  it('applies an inbound message once: a replayed STOP after a START changes nothing', () => {
    const stop = decided(optOut(given(), cmd({ inbound: { id: 'in_1', position: 10n } })));
    const start = decided(optIn(given(...stop), cmd({ inbound: { id: 'in_2', position: 12n } })));
    expect(start).toHaveLength(1);
    expect(
      decided(optOut(given(...stop, ...start), cmd({ inbound: { id: 'in_1', position: 10n } }))),
    ).toEqual([]);
    expect(given(...stop, ...start).optedOut).toBe(false);
  });
});
