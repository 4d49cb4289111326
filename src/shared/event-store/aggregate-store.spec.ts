import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decider, DomainEvent } from '../decider';
import { ok } from '../result';
import { AggregateStore } from './aggregate-store';
import { SqliteEventStore } from './sqlite/sqlite-event-store.adapter';

type Step = DomainEvent<'Stepped', { to: 'open' | 'closed' }>;
type Door = { readonly status: 'new' | 'open' | 'closed' };
const door: Decider<Door, Step> = {
  initialState: () => ({ status: 'new' }),
  evolve: (_, event) => ({ status: event.data.to }),
  isFinal: (state) => state.status === 'closed',
};
const step = (to: 'open' | 'closed') => () => ok<Step[]>([{ type: 'Stepped', data: { to } }]);

describe('AggregateStore', () => {
  let dir: string;
  let events: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sms-wallet-aggregates-'));
    events = new SqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides on the state it remembers, without a read, until the state is final', async () => {
    const aggregates = new AggregateStore(events);
    const reads = jest.spyOn(events, 'readStream');
    const trusted = () => aggregates.state('door-1', door, { trustRemembered: true });
    await aggregates.handle('door-1', door, step('open'));
    reads.mockClear();
    expect((await trusted()).state).toEqual({ status: 'open' });
    expect(reads).not.toHaveBeenCalled(); // the open door was remembered
    await aggregates.handle('door-1', door, step('closed'));
    reads.mockClear();
    expect((await trusted()).state).toEqual({ status: 'closed' });
    expect(reads).toHaveBeenCalledWith('door-1', expect.anything()); // the closed one was not
  });
});
