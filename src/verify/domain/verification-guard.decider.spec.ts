import { fold } from '../../shared/decider';
import {
  admit,
  GUARD_WINDOW_MS,
  GuardEvent,
  guardDecider,
  GuardLimits,
  rangeOf,
  returnAllowance,
  verificationGuardStream,
} from './verification-guard.decider';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const iso = (ms: number) => at(ms).toISOString();
const limits: GuardLimits = { perNumber: 2, perRange: 3, perWallet: 4 };
const given = (...events: GuardEvent[]) => fold(guardDecider, events);
const allowed = (id: string, to: string, ms: number): GuardEvent => ({
  type: 'VerificationAllowed',
  data: { verificationId: id, to, at: iso(ms) },
});
const admitAt = (state: ReturnType<typeof given>, id: string, to: string, ms: number, caps = limits) =>
  admit(state, { walletId: 'wal_1', verificationId: id, to, now: at(ms), limits: caps });
const refusedBy = (limit: string, retryAfterSeconds: number, to: string, ms: number): GuardEvent[] => [
  {
    type: 'VerificationRefused',
    data: { walletId: 'wal_1', to, limit: limit as 'number', retryAfterSeconds, at: iso(ms) },
  },
];

describe('verification guard', () => {
  it('lives in one stream per wallet', () =>
    expect(verificationGuardStream('wal_1')).toBe('verify-guard-wal_1'));

  it('takes a number range as the first 9 digits after the +', () => {
    expect(rangeOf('+233241234567')).toBe('233241234');
  });

  it('allows a verification under every cap', () => {
    expect(admitAt(given(), 'ver_1', '+233241234567', 0)).toEqual([allowed('ver_1', '+233241234567', 0)]);
  });

  it('records nothing twice for the same verification', () => {
    expect(admitAt(given(allowed('ver_1', '+233241234567', 0)), 'ver_1', '+233241234567', 1)).toEqual([]);
  });

  it('refuses past the cap per number, saying when the oldest start leaves the hour', () => {
    const state = given(allowed('ver_1', '+233241234567', 0), allowed('ver_2', '+233241234567', 60_000));
    expect(admitAt(state, 'ver_3', '+233241234567', 120_000)).toEqual(
      refusedBy('number', (GUARD_WINDOW_MS - 120_000) / 1000, '+233241234567', 120_000),
    );
  });

  it('refuses past the cap per number range', () => {
    const state = given(
      allowed('ver_1', '+233241234561', 0),
      allowed('ver_2', '+233241234562', 0),
      allowed('ver_3', '+233241234563', 0),
    );
    expect(admitAt(state, 'ver_4', '+233241234564', 1000)).toEqual(
      refusedBy('range', GUARD_WINDOW_MS / 1000 - 1, '+233241234564', 1000),
    );
    expect(admitAt(state, 'ver_4', '+233241239999', 1000)).toEqual([allowed('ver_4', '+233241239999', 1000)]);
  });

  it('refuses past the cap per wallet', () => {
    const state = given(
      allowed('ver_1', '+233241000001', 0),
      allowed('ver_2', '+233242000002', 0),
      allowed('ver_3', '+233243000003', 0),
      allowed('ver_4', '+233244000004', 0),
    );
    expect(admitAt(state, 'ver_5', '+233245000005', 0)).toEqual(
      refusedBy('wallet', GUARD_WINDOW_MS / 1000, '+233245000005', 0),
    );
  });

  it('counts only the last hour', () => {
    const state = given(allowed('ver_1', '+233241234567', 0), allowed('ver_2', '+233241234567', 1000));
    expect(admitAt(state, 'ver_3', '+233241234567', GUARD_WINDOW_MS)).toEqual([
      allowed('ver_3', '+233241234567', GUARD_WINDOW_MS),
    ]);
  });

  it('keeps only an hour of starts in its state', () => {
    const state = given(
      allowed('ver_1', '+233241234567', 0),
      allowed('ver_2', '+233241234568', GUARD_WINDOW_MS + 1),
    );
    expect(state.entries.map((e) => e.verificationId)).toEqual(['ver_2']);
  });

  it('takes 0 as no cap', () => {
    const state = given(allowed('ver_1', '+233241234567', 0), allowed('ver_2', '+233241234567', 0));
    expect(admitAt(state, 'ver_3', '+233241234567', 1, { perNumber: 0, perRange: 0, perWallet: 0 })).toEqual([
      allowed('ver_3', '+233241234567', 1),
    ]);
  });

  it('counts a returned allowance no more', () => {
    const state = given(allowed('ver_1', '+233241234567', 0), allowed('ver_2', '+233241234567', 0));
    const returned = returnAllowance(state, { verificationId: 'ver_1', now: at(5) });
    expect(returned).toEqual([
      { type: 'VerificationAllowanceReturned', data: { verificationId: 'ver_1', at: iso(5) } },
    ]);
    expect(
      admitAt(
        given(...[allowed('ver_1', '+233241234567', 0), allowed('ver_2', '+233241234567', 0), ...returned]),
        'ver_3',
        '+233241234567',
        6,
      ),
    ).toEqual([allowed('ver_3', '+233241234567', 6)]);
    expect(returnAllowance(state, { verificationId: 'ver_9', now: at(5) })).toEqual([]);
  });
});
