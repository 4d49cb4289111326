import { fold } from '../../shared/decider';
import { completeReset, passwordResetsDecider, requestReset } from './password-reset.decider';
import type { PasswordResetEvent } from './password-reset.events';

const t0 = new Date('2026-11-25T10:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const ask = (resetId: string, minutes: number) => (events: PasswordResetEvent[]) => {
  const state = fold(passwordResetsDecider, events);
  const decided = requestReset(state, {
    resetId,
    accountId: 'acct_1',
    email: 'm@example.com',
    tokenHash: `hash-${resetId}`,
    sealedToken: 'v1.sealed',
    now: at(minutes),
  });
  return [...events, ...(decided.ok ? decided.value : [])];
};
const history = (...steps: ((e: PasswordResetEvent[]) => PasswordResetEvent[])[]) =>
  steps.reduce((e, step) => step(e), [] as PasswordResetEvent[]);
const use = (events: PasswordResetEvent[], resetId: string, minutes: number) =>
  completeReset(fold(passwordResetsDecider, events), { tokenHash: `hash-${resetId}`, now: at(minutes) });

describe('password resets', () => {
  it('a link works once, within 30 minutes', () => {
    const events = history(ask('r1', 0));
    expect(events[0]).toMatchObject({
      type: 'PasswordResetRequested',
      data: { expiresAt: at(30).toISOString() },
    });
    const used = use(events, 'r1', 29);
    expect(used).toEqual({
      ok: true,
      value: [{ type: 'PasswordResetCompleted', data: { resetId: 'r1', completedAt: at(29).toISOString() } }],
    });
    expect(use([...events, ...(used.ok ? used.value : [])], 'r1', 29)).toMatchObject({
      ok: false,
      error: { code: 'reset_link_invalid' },
    });
    expect(use(events, 'r1', 30)).toMatchObject({ ok: false, error: { code: 'reset_link_invalid' } });
    expect(use(events, 'nope', 1)).toMatchObject({ ok: false });
  });

  it('a reset spends every link asked for before it', () => {
    const events = history(ask('r1', 0), ask('r2', 1));
    const used = use(events, 'r2', 2);
    expect(use([...events, ...(used.ok ? used.value : [])], 'r1', 3)).toMatchObject({ ok: false });
  });

  it('at most 3 links an hour per account; the fourth asks for nothing', () => {
    expect(history(ask('r1', 0), ask('r2', 1), ask('r3', 2), ask('r4', 3))).toHaveLength(3);
    expect(history(ask('r1', 0), ask('r2', 1), ask('r3', 2), ask('r4', 61))).toHaveLength(4);
  });
});
