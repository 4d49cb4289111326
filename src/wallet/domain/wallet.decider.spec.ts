import fc from 'fast-check';
import { fold } from '../../shared/decider';
import {
  addCredits,
  capture,
  hold,
  InsufficientCredit,
  open,
  release,
  releaseHold,
  reserve,
  reserveAll,
  reserveFromHold,
  smsLeft,
  walletDecider,
  walletSnapshots,
} from './wallet.decider';
import type { WalletEvent } from './wallet.events';
import { ReservationMap } from './reservation-map';
import { decideAll, decideWalletCommand, type WalletCommand } from './wallet.commands';

const now = new Date('2026-01-01T00:00:00Z');
const opened: WalletEvent = {
  type: 'WalletOpened',
  data: { walletId: 'wal_1', accountId: 'acct_1', environment: 'TEST', openedAt: now.toISOString() },
};
const added = (sms: number, sourceId = `src_${sms}`): WalletEvent => ({
  type: 'CreditsAdded',
  data: { sourceId, source: 'purchase', sms, reason: 'test', addedAt: now.toISOString() },
});
const reserved = (messageId: string, sms: number): WalletEvent => ({
  type: 'CreditsReserved',
  data: { messageId, sms, reservedAt: now.toISOString() },
});
const given = (...events: WalletEvent[]) => fold(walletDecider, events);
const events = <T>(result: { ok: boolean; value?: T }) => (result.ok ? result.value : undefined);

describe('wallet decider', () => {
  describe('open', () => {
    it('opens a TEST wallet with its free credits recorded as an event', () => {
      const result = open(given(), {
        walletId: 'wal_1',
        accountId: 'acct_1',
        environment: 'TEST',
        initialCredits: 100,
        now,
      });
      expect(events(result)).toEqual([
        opened,
        {
          type: 'CreditsAdded',
          data: {
            sourceId: 'wal_1:opening',
            source: 'test_grant',
            sms: 100,
            reason: 'Free test credits on opening',
            addedAt: now.toISOString(),
          },
        },
      ]);
    });
    it('opens a LIVE wallet empty', () => {
      const result = open(given(), {
        walletId: 'wal_1',
        accountId: 'acct_1',
        environment: 'LIVE',
        initialCredits: 0,
        now,
      });
      expect(events(result)).toHaveLength(1);
    });
    it('records nothing when the wallet is already open', () => {
      expect(
        events(
          open(given(opened), {
            walletId: 'wal_1',
            accountId: 'acct_1',
            environment: 'TEST',
            initialCredits: 100,
            now,
          }),
        ),
      ).toEqual([]);
    });
  });

  describe('addCredits', () => {
    it('adds credits from a new source', () => {
      expect(
        events(
          addCredits(given(opened), { sourceId: 'chk_1', source: 'purchase', sms: 5, reason: 'r', now }),
        ),
      ).toEqual([
        {
          type: 'CreditsAdded',
          data: { sourceId: 'chk_1', source: 'purchase', sms: 5, reason: 'r', addedAt: now.toISOString() },
        },
      ]);
    });
    it('never credits the same source twice', () => {
      expect(
        events(
          addCredits(given(opened, added(5, 'chk_1')), {
            sourceId: 'chk_1',
            source: 'purchase',
            sms: 5,
            reason: 'r',
            now,
          }),
        ),
      ).toEqual([]);
    });
    it.each([0, -1, 1.5, Number.NaN])('refuses %p credits', (sms) => {
      const result = addCredits(given(opened), {
        sourceId: 'x',
        source: 'operator_grant',
        sms,
        reason: 'r',
        now,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_amount' } });
    });
    it('refuses a wallet that was never opened', () => {
      expect(
        addCredits(given(), { sourceId: 'x', source: 'purchase', sms: 1, reason: 'r', now }),
      ).toMatchObject({
        ok: false,
        error: { code: 'wallet_not_found' },
      });
    });
  });

  describe('reserve', () => {
    it('reserves credits for a message', () => {
      expect(events(reserve(given(opened, added(5)), { messageId: 'msg_1', sms: 3, now }))).toEqual(
        [reserved('msg_1', 3)].map((e) => ({ ...e })),
      );
    });
    it('refuses a reservation that would overspend', () => {
      const result = reserve(given(opened, added(5)), { messageId: 'msg_1', sms: 6, now });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toBeInstanceOf(InsufficientCredit);
      expect(!result.ok && result.error).toMatchObject({
        kind: 'insufficient_credit',
        available: 5,
        requested: 6,
      });
    });
    it('counts open reservations against sms_left', () => {
      expect(
        reserve(given(opened, added(5), reserved('msg_1', 4)), { messageId: 'msg_2', sms: 2, now }).ok,
      ).toBe(false);
    });
    it('is idempotent per message id', () => {
      expect(
        events(reserve(given(opened, added(5), reserved('msg_1', 4)), { messageId: 'msg_1', sms: 4, now })),
      ).toEqual([]);
    });
    it('refuses a closed or missing wallet and bad amounts', () => {
      expect(reserve(given(), { messageId: 'm', sms: 1, now })).toMatchObject({
        ok: false,
        error: { code: 'wallet_not_found' },
      });
      expect(reserve(given(opened, added(5)), { messageId: 'm', sms: 0, now })).toMatchObject({
        ok: false,
        error: { code: 'invalid_amount' },
      });
    });
  });

  describe('reserveAll (a batch send)', () => {
    const r = (messageId: string, sms: number) => ({ messageId, sms });
    it('reserves every message of the batch in one decision', () => {
      expect(
        events(reserveAll(given(opened, added(5)), { reservations: [r('msg_1', 2), r('msg_2', 3)], now })),
      ).toEqual([reserved('msg_1', 2), reserved('msg_2', 3)]);
    });
    it('refuses the whole batch, reserving nothing, when the messages do not fit together', () => {
      const result = reserveAll(given(opened, added(5), reserved('msg_0', 1)), {
        reservations: [r('msg_1', 2), r('msg_2', 3)],
        now,
      });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toBeInstanceOf(InsufficientCredit);
      expect(!result.ok && result.error).toMatchObject({
        kind: 'insufficient_credit',
        code: 'insufficient_credit',
        available: 4,
        requested: 5,
        message: 'This batch needs 5 credits but the wallet has 4 left',
      });
    });
    it('skips the messages already reserved: finishing an interrupted batch reserves only the rest', () => {
      expect(
        events(
          reserveAll(given(opened, added(5), reserved('msg_1', 2)), {
            reservations: [r('msg_1', 2), r('msg_2', 3)],
            now,
          }),
        ),
      ).toEqual([reserved('msg_2', 3)]);
    });
    it('reserves a message named twice once', () => {
      expect(
        events(reserveAll(given(opened, added(5)), { reservations: [r('msg_1', 2), r('msg_1', 2)], now })),
      ).toEqual([reserved('msg_1', 2)]);
    });
    it('records the instance making the send on each reservation', () => {
      expect(
        events(reserveAll(given(opened, added(5)), { reservations: [r('msg_1', 1)], now, instance: 'i1' })),
      ).toEqual([{ ...reserved('msg_1', 1), data: { ...reserved('msg_1', 1).data, instance: 'i1' } }]);
    });
    it('refuses a missing wallet, an empty batch and bad amounts', () => {
      expect(reserveAll(given(), { reservations: [r('m', 1)], now })).toMatchObject({
        ok: false,
        error: { code: 'wallet_not_found' },
      });
      expect(reserveAll(given(opened, added(5)), { reservations: [], now })).toMatchObject({
        ok: false,
        error: { code: 'invalid_amount' },
      });
      expect(
        reserveAll(given(opened, added(5)), { reservations: [r('a', 1), r('b', 0)], now }),
      ).toMatchObject({ ok: false, error: { code: 'invalid_amount' } });
    });
  });

  describe('holds (a campaign: all its credits at once, then its messages from the hold)', () => {
    const held = (holdId: string, sms: number): WalletEvent => ({
      type: 'CreditsHeld',
      data: { holdId, sms, heldAt: now.toISOString() },
    });
    const fromHold = (messageId: string, sms: number, holdId = 'cmp_1'): WalletEvent => ({
      type: 'CreditsReserved',
      data: { messageId, sms, reservedAt: now.toISOString(), holdId },
    });
    const r = (messageId: string, sms: number) => ({ messageId, sms });

    it('holds the whole campaign in one decision, or refuses it all with a 402', () => {
      expect(events(hold(given(opened, added(10)), { holdId: 'cmp_1', sms: 10, now }))).toEqual([
        held('cmp_1', 10),
      ]);
      const refused = hold(given(opened, added(10), reserved('msg_0', 1)), { holdId: 'cmp_1', sms: 10, now });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          kind: 'insufficient_credit',
          message: 'This campaign needs 10 credits but the wallet has 9 left',
        },
      });
    });
    it('takes held credits out of sms_left, and a hold made once is never made again', () => {
      const w = given(opened, added(10), held('cmp_1', 6));
      expect(smsLeft(w)).toBe(4);
      expect(events(hold(w, { holdId: 'cmp_1', sms: 6, now }))).toEqual([]);
      const usedUp = given(opened, added(10), held('cmp_1', 2), fromHold('m1', 2));
      expect(events(hold(usedUp, { holdId: 'cmp_1', sms: 2, now }))).toEqual([]);
    });
    it('reserves messages from the hold without moving sms_left, skipping those already reserved', () => {
      const w = given(opened, added(10), held('cmp_1', 6), fromHold('m1', 2));
      expect(smsLeft(w)).toBe(4);
      expect(w.holds.get('cmp_1')).toBe(4);
      expect(
        events(reserveFromHold(w, { holdId: 'cmp_1', reservations: [r('m1', 2), r('m2', 3)], now })),
      ).toEqual([fromHold('m2', 3)]);
      const after = fold(walletDecider, [fromHold('m2', 3)], w);
      expect({ left: smsLeft(after), hold: after.holds.get('cmp_1'), reserved: after.reservedTotal }).toEqual(
        {
          left: 4,
          hold: 1,
          reserved: 5,
        },
      );
    });
    it('refuses a chunk bigger than what is left of the hold, or one from a closed hold', () => {
      const w = given(opened, added(10), held('cmp_1', 3));
      expect(
        reserveFromHold(w, { holdId: 'cmp_1', reservations: [r('m1', 2), r('m2', 2)], now }),
      ).toMatchObject({
        ok: false,
        error: { code: 'hold_exceeded' },
      });
      const released = fold(
        walletDecider,
        events(releaseHold(w, { holdId: 'cmp_1', reason: 'canceled' }))!,
        w,
      );
      expect(reserveFromHold(released, { holdId: 'cmp_1', reservations: [r('m1', 1)], now })).toMatchObject({
        ok: false,
        error: { code: 'hold_closed' },
      });
    });
    it('releases what is left of a hold once, and an emptied hold closes itself', () => {
      const w = given(opened, added(10), held('cmp_1', 5), fromHold('m1', 2));
      const released = events(releaseHold(w, { holdId: 'cmp_1', reason: 'canceled' }));
      expect(released).toEqual([
        { type: 'HeldCreditsReleased', data: { holdId: 'cmp_1', sms: 3, reason: 'canceled' } },
      ]);
      const after = fold(walletDecider, released!, w);
      expect({ left: smsLeft(after), holds: after.holds.size }).toEqual({ left: 8, holds: 0 });
      expect(events(releaseHold(after, { holdId: 'cmp_1', reason: 'again' }))).toEqual([]);
      const usedUp = given(opened, added(10), held('cmp_1', 2), fromHold('m1', 2));
      expect({ holds: usedUp.holds.size, held: usedUp.heldTotal }).toEqual({ holds: 0, held: 0 });
    });
    it('snapshots keep holds, and are taken less often for a wallet with many open reservations', () => {
      const w = given(opened, added(10), held('cmp_1', 5), fromHold('m1', 2));
      expect(walletSnapshots.decode(JSON.parse(JSON.stringify(walletSnapshots.encode(w))))).toEqual(w);
      expect(walletSnapshots.interval(w)).toBe(500);
      const busy = {
        ...w,
        reserved: ReservationMap.from(Array.from({ length: 100_000 }, (_, i) => [`m${i}`, 1] as const)),
      };
      expect(walletSnapshots.interval(busy)).toBe(128_000);
    });
    it('reads a snapshot taken before holds existed', () => {
      const old = { ...walletSnapshots.encode(given(opened, added(3))) } as Record<string, unknown>;
      delete old.holds;
      delete old.holdIds;
      delete old.heldTotal;
      expect(smsLeft(walletSnapshots.decode(old))).toBe(3);
    });
  });

  describe('capture and release', () => {
    const w = given(opened, added(10), reserved('msg_1', 3));
    it('capture spends the reservation', () => {
      const result = capture(w, { messageId: 'msg_1' });
      expect(events(result)).toEqual([{ type: 'ReservationCaptured', data: { messageId: 'msg_1', sms: 3 } }]);
      const after = fold(walletDecider, events(result)!, w);
      expect({ left: smsLeft(after), balance: after.balance, captured: after.captured }).toEqual({
        left: 7,
        balance: 7,
        captured: 3,
      });
    });
    it('release gives the reservation back', () => {
      const result = release(w, { messageId: 'msg_1', reason: 'FAILED' });
      expect(events(result)).toEqual([
        { type: 'ReservationReleased', data: { messageId: 'msg_1', sms: 3, reason: 'FAILED' } },
      ]);
      expect(smsLeft(fold(walletDecider, events(result)!, w))).toBe(10);
    });
    it('capture or release of an unknown or settled reservation records nothing', () => {
      const settled = fold(walletDecider, events(capture(w, { messageId: 'msg_1' }))!, w);
      expect(events(capture(settled, { messageId: 'msg_1' }))).toEqual([]);
      expect(events(release(settled, { messageId: 'msg_1', reason: 'x' }))).toEqual([]);
      expect(events(capture(w, { messageId: 'msg_unknown' }))).toEqual([]);
    });
  });

  describe('batches', () => {
    const walletCommand = fc.oneof(
      fc
        .record({ id: fc.integer({ min: 0, max: 6 }), sms: fc.integer({ min: 1, max: 20 }) })
        .map(({ id, sms }): WalletCommand => ({
          type: 'AddCredits',
          sourceId: `s${id}`,
          source: 'purchase',
          sms,
          reason: 'r',
        })),
      fc
        .record({ id: fc.integer({ min: 0, max: 8 }), sms: fc.integer({ min: 1, max: 20 }) })
        .map(({ id, sms }): WalletCommand => ({ type: 'ReserveCredits', messageId: `m${id}`, sms })),
      fc
        .array(fc.record({ id: fc.integer({ min: 0, max: 8 }), sms: fc.integer({ min: 1, max: 8 }) }), {
          minLength: 1,
          maxLength: 4,
        })
        .map((items): WalletCommand => ({
          type: 'ReserveBatch',
          reservations: items.map(({ id, sms }) => ({ messageId: `m${id}`, sms })),
        })),
      fc
        .integer({ min: 0, max: 8 })
        .map((id): WalletCommand => ({ type: 'CaptureReservation', messageId: `m${id}` })),
      fc
        .integer({ min: 0, max: 8 })
        .map((id): WalletCommand => ({ type: 'ReleaseReservation', messageId: `m${id}`, reason: 'r' })),
      fc
        .record({ id: fc.integer({ min: 0, max: 2 }), sms: fc.integer({ min: 1, max: 20 }) })
        .map(({ id, sms }): WalletCommand => ({ type: 'HoldCredits', holdId: `h${id}`, sms })),
      fc
        .record({
          id: fc.integer({ min: 0, max: 2 }),
          items: fc.array(
            fc.record({ id: fc.integer({ min: 0, max: 8 }), sms: fc.integer({ min: 1, max: 5 }) }),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
        })
        .map(({ id, items }): WalletCommand => ({
          type: 'ReserveFromHold',
          holdId: `h${id}`,
          reservations: items.map((i) => ({ messageId: `m${i.id}`, sms: i.sms })),
        })),
      fc
        .integer({ min: 0, max: 2 })
        .map((id): WalletCommand => ({ type: 'ReleaseHold', holdId: `h${id}`, reason: 'r' })),
    );
    const snapshot = (w: ReturnType<typeof given>) => JSON.stringify(walletSnapshots.encode(w));

    it('decides a batch exactly as the same commands one by one, and leaves the wallet it was given alone', () => {
      fc.assert(
        fc.property(
          fc.array(walletCommand, { maxLength: 20 }),
          fc.array(walletCommand, { maxLength: 40 }),
          (before, batch) => {
            let w = given(opened, added(15, 'seed'));
            for (const c of before) {
              const r = decideWalletCommand(w, c, now);
              if (r.ok) w = fold(walletDecider, r.value, w);
            }
            const untouched = snapshot(w);

            let oneByOne = w;
            const expected = batch.map((c) => {
              const r = decideWalletCommand(oneByOne, c, now);
              if (r.ok) oneByOne = fold(walletDecider, r.value, oneByOne);
              return { result: r, smsLeft: smsLeft(oneByOne) };
            });
            const { wallet: after, decided } = decideAll(w, batch, now);

            expect(decided).toEqual(expected);
            expect(snapshot(after)).toBe(snapshot(oneByOne));
            expect(snapshot(w)).toBe(untouched);
          },
        ),
      );
    });

    it('folds many events to the state one-by-one evolution reaches, without changing its input', () => {
      const start = given(opened, added(10, 'a'), reserved('msg_1', 3));
      const untouched = snapshot(start);
      const history: WalletEvent[] = [
        reserved('msg_2', 4),
        { type: 'ReservationCaptured', data: { messageId: 'msg_1', sms: 3 } },
        added(5, 'b'),
        {
          type: 'ReservationReleased',
          data: { messageId: 'msg_2', sms: 4, reason: 'r' },
        },
      ];
      const stepwise = history.reduce((w, e) => walletDecider.evolve(w, e), start);
      expect(snapshot(walletDecider.evolveAll!(start, history))).toBe(snapshot(stepwise));
      expect(snapshot(start)).toBe(untouched);
      expect(smsLeft(stepwise)).toBe(12);
    });
  });

  it('snapshots round-trip to the same state', () => {
    const w = given(opened, added(10, 'a'), reserved('msg_1', 3));
    expect(walletSnapshots.decode(JSON.parse(JSON.stringify(walletSnapshots.encode(w))))).toEqual(w);
  });

  it('never lets sms_left go negative and keeps credits in = sms_left + captured + reserved + held, whatever the commands', () => {
    type Cmd = {
      kind: 'add' | 'reserve' | 'capture' | 'release' | 'hold' | 'fromHold' | 'releaseHold';
      id: number;
      sms: number;
    };
    const command = fc.record({
      kind: fc.constantFrom<Cmd['kind']>(
        'add',
        'reserve',
        'capture',
        'release',
        'hold',
        'fromHold',
        'releaseHold',
      ),
      id: fc.integer({ min: 0, max: 8 }),
      sms: fc.integer({ min: 1, max: 20 }),
    });
    fc.assert(
      fc.property(fc.array(command, { maxLength: 60 }), (commands) => {
        let w = given(opened);
        let creditsIn = 0;
        for (const c of commands) {
          const result =
            c.kind === 'add'
              ? addCredits(w, { sourceId: `s${c.id}`, source: 'purchase', sms: c.sms, reason: 'r', now })
              : c.kind === 'reserve'
                ? reserve(w, { messageId: `m${c.id}`, sms: c.sms, now })
                : c.kind === 'capture'
                  ? capture(w, { messageId: `m${c.id}` })
                  : c.kind === 'release'
                    ? release(w, { messageId: `m${c.id}`, reason: 'r' })
                    : c.kind === 'hold'
                      ? hold(w, { holdId: `h${c.id % 3}`, sms: c.sms, now })
                      : c.kind === 'fromHold'
                        ? reserveFromHold(w, {
                            holdId: `h${c.id % 3}`,
                            reservations: [{ messageId: `m${c.id}`, sms: 1 + (c.sms % 4) }],
                            now,
                          })
                        : releaseHold(w, { holdId: `h${c.id % 3}`, reason: 'r' });
          if (!result.ok) continue;
          for (const e of result.value) if (e.type === 'CreditsAdded') creditsIn += e.data.sms;
          w = fold(walletDecider, result.value, w);
          expect(smsLeft(w)).toBeGreaterThanOrEqual(0);
          expect(w.heldTotal).toBe([...w.holds.values()].reduce((a, b) => a + b, 0));
          expect(creditsIn).toBe(smsLeft(w) + w.captured + w.reservedTotal + w.heldTotal);
        }
      }),
    );
  });
});
