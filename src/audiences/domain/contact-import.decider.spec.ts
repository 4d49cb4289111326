import { fold } from '../../shared/decider';
import type { ContactImportEvent } from './audience.events';
import {
  chunkApplied,
  completeImport,
  contactImportDecider,
  failImport,
  MAX_REPORTED_ERRORS,
  mayTake,
  startImport,
  takeImport,
} from './contact-import.decider';

const now = new Date('2026-11-24T10:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
const decided = (result: { ok: boolean; value?: ContactImportEvent[]; error?: unknown }) => {
  if (!result.ok) throw result.error;
  return result.value as ContactImportEvent[];
};
const started = decided(
  startImport(contactImportDecider.initialState(), {
    importId: 'imp_1',
    walletId: 'wal_1',
    groupId: null,
    defaultCountry: 'GH',
    columns: { phone: 0, name: null, fields: [], width: 1 },
    rowsTotal: 2500,
    chunks: 3,
    startedAt: now.toISOString(),
  }),
);
const given = (...events: ContactImportEvent[]) => fold(contactImportDecider, events);
const take = (instance: string, ms = 0, holderDead = false) => ({
  instance,
  now: at(ms),
  leaseMs: 30_000,
  holderDead,
});
const chunk = (instance: string, n: number, errors = 0) => ({
  instance,
  chunk: n,
  rows: 1000,
  created: 900,
  updated: 50,
  errors: Array.from({ length: errors }, (_, i) => ({
    line: n * 1000 + i + 2,
    code: 'invalid_phone_number',
    message: 'x',
  })),
  now,
  leaseMs: 30_000,
});

describe('a contact import (the job)', () => {
  it('is taken by one process at a time: another waits for the lease or the holder’s death', () => {
    const taken = decided(takeImport(given(...started), take('ins_a')));
    expect(taken).toEqual([
      { type: 'ContactImportTaken', data: expect.objectContaining({ instance: 'ins_a' }) },
    ]);
    const held = given(...started, ...taken);
    expect(decided(takeImport(held, take('ins_b', 1000)))).toEqual([]);
    expect(mayTake(held, take('ins_b', 30_000))).toBe(true);
    expect(mayTake(held, take('ins_b', 1000, true))).toBe(true);
  });

  it('applies chunks in order, by the holder only, adding the counts and keeping the first 100 errors', () => {
    const taken = decided(takeImport(given(...started), take('ins_a')));
    const first = decided(chunkApplied(given(...started, ...taken), chunk('ins_a', 0, 80)));
    const second = decided(chunkApplied(given(...started, ...taken, ...first), chunk('ins_a', 1, 80)));
    const state = given(...started, ...taken, ...first, ...second);
    expect(state).toMatchObject({
      chunksDone: 2,
      rowsDone: 2000,
      created: 1800,
      updated: 100,
      errorsCount: 160,
    });
    expect(state.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(chunkApplied(state, chunk('ins_a', 1))).toMatchObject({
      ok: false,
      error: { code: 'import_taken_over' },
    });
    expect(chunkApplied(state, chunk('ins_b', 2))).toMatchObject({ ok: false });
  });

  it('completes only once every chunk is in, and a finished import is taken by nobody', () => {
    let events = [...started, ...decided(takeImport(given(...started), take('ins_a')))];
    expect(completeImport(given(...events), { instance: 'ins_a', now }).ok).toBe(false);
    for (let n = 0; n < 3; n++)
      events = [...events, ...decided(chunkApplied(given(...events), chunk('ins_a', n)))];
    const completed = decided(completeImport(given(...events), { instance: 'ins_a', now }));
    expect(given(...events, ...completed)).toMatchObject({
      status: 'completed',
      finishedAt: now.toISOString(),
    });
    expect(mayTake(given(...events, ...completed), take('ins_b', 60_000, true))).toBe(false);
    expect(decided(completeImport(given(...events, ...completed), { instance: 'ins_a', now }))).toEqual([]);
  });

  it('fails with a reason', () => {
    const events = [...started, ...decided(takeImport(given(...started), take('ins_a')))];
    const failed = decided(
      failImport(given(...events), { instance: 'ins_a', code: 'group_missing', message: 'gone', now }),
    );
    expect(given(...events, ...failed)).toMatchObject({
      status: 'failed',
      failure: { code: 'group_missing' },
    });
  });
});
