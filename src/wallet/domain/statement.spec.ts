import { StatementFold, statementCsv, statementPeriod, type DatedWalletEvent } from './statement';

const at = (iso: string) => new Date(iso);
const added = (
  iso: string,
  sms: number,
  source: 'purchase' | 'test_grant' | 'operator_grant',
  sourceId: string,
  reason: string,
): DatedWalletEvent => ({
  type: 'CreditsAdded',
  data: { sourceId, source, sms, reason, addedAt: iso },
  recordedAt: at(iso),
});
const reserved = (iso: string, id: string, sms: number): DatedWalletEvent => ({
  type: 'CreditsReserved',
  data: { messageId: id, sms, reservedAt: iso },
  recordedAt: at(iso),
});
const captured = (iso: string, id: string, sms: number): DatedWalletEvent => ({
  type: 'ReservationCaptured',
  data: { messageId: id, sms },
  recordedAt: at(iso),
});
const released = (iso: string, id: string, sms: number): DatedWalletEvent => ({
  type: 'ReservationReleased',
  data: { messageId: id, sms, reason: 'failed' },
  recordedAt: at(iso),
});

const history = [
  added('2026-10-30T09:00:00Z', 100, 'test_grant', 'wal_1:opening', 'Free test credits on opening'),
  reserved('2026-10-31T23:59:59Z', 'msg_0', 2),
  captured('2026-11-01T00:00:01Z', 'msg_0', 2),
  added('2026-11-01T10:00:00Z', 1000, 'purchase', 'chk_1', 'Checkout chk_1 (pkg_starter)'),
  reserved('2026-11-01T11:00:00Z', 'msg_1', 3),
  captured('2026-11-01T11:00:02Z', 'msg_1', 3),
  reserved('2026-11-02T08:00:00Z', 'msg_2', 5),
  released('2026-11-02T08:01:00Z', 'msg_2', 5),
  reserved('2026-11-03T08:00:00Z', 'msg_3', 1),
  added('2026-11-03T12:00:00Z', 50, 'operator_grant', 'grant:x', 'Goodwill, "late" DLRs'),
  captured('2026-11-05T00:00:00Z', 'msg_3', 1),
];

function statementOf(from: string, to: string) {
  const fold = new StatementFold(from, to);
  for (const e of history) fold.add(e);
  return fold.result();
}

describe('statement', () => {
  it('per UTC day: purchased, granted, spent (captured only), delivered, closing; totals reconcile', () => {
    const s = statementOf('2026-11-01', '2026-11-04');
    expect(s.opening_balance).toBe(100);
    expect(s.days).toEqual([
      {
        date: '2026-11-01',
        purchased: 1000,
        granted: 0,
        spent: 5,
        messages_delivered: 2,
        closing_balance: 1095,
      },
      {
        date: '2026-11-02',
        purchased: 0,
        granted: 0,
        spent: 0,
        messages_delivered: 0,
        closing_balance: 1095,
      },
      {
        date: '2026-11-03',
        purchased: 0,
        granted: 50,
        spent: 0,
        messages_delivered: 0,
        closing_balance: 1145,
      },
      {
        date: '2026-11-04',
        purchased: 0,
        granted: 0,
        spent: 0,
        messages_delivered: 0,
        closing_balance: 1145,
      },
    ]);
    expect(s.opening_balance + s.purchased + s.granted - s.spent).toBe(s.closing_balance);
    expect(statementOf('2026-11-05', '2026-11-05')).toMatchObject({
      opening_balance: 1145,
      spent: 1,
      closing_balance: 1144,
    });
  });

  it('as CSV: opening, each purchase with its checkout id and grant with its reason, a row per day of spending, closing', () => {
    const csv = statementCsv(statementOf('2026-11-01', '2026-11-04'));
    expect(csv.split('\r\n')).toEqual([
      'date,type,reference,description,sms',
      '2026-11-01,opening_balance,,Balance at the start of the day,100',
      '2026-11-01,purchase,chk_1,Checkout chk_1 (pkg_starter),1000',
      '2026-11-01,spent,,2 messages delivered,-5',
      '2026-11-03,grant,grant:x,"Goodwill, ""late"" DLRs",50',
      '2026-11-04,closing_balance,,Balance at the end of the day,1145',
      '',
    ]);
  });

  it('counts each capture a ReservationsSettled names as spent and delivered, and none of its releases', () => {
    const fold = new StatementFold('2026-11-01', '2026-11-01');
    fold.add(added('2026-10-31T09:00:00Z', 100, 'test_grant', 'wal_1:opening', 'Opening'));
    for (const id of ['msg_a', 'msg_b', 'msg_c']) fold.add(reserved('2026-11-01T08:00:00Z', id, 2));
    fold.add({
      type: 'ReservationsSettled',
      data: {
        captured: [
          { messageId: 'msg_a', sms: 2 },
          { messageId: 'msg_b', sms: 2 },
        ],
        released: [{ messageId: 'msg_c', sms: 2, reason: 'message failed' }],
      },
      recordedAt: at('2026-11-01T08:00:05Z'),
    });
    const [day] = fold.result().days;
    expect(day).toMatchObject({ spent: 4, messages_delivered: 2, closing_balance: 96 });
  });

  it('periods: defaults to this month so far; a real UTC day; from not after to; at most 366 days', () => {
    const now = at('2026-11-25T10:00:00Z');
    expect(statementPeriod({}, now)).toEqual({ ok: true, value: { from: '2026-11-01', to: '2026-11-25' } });
    expect(statementPeriod({ from: '2026-02-30', to: '2026-03-01' }, now)).toMatchObject({
      ok: false,
      error: { code: 'invalid_date', param: 'from' },
    });
    expect(statementPeriod({ to: 'yesterday' }, now)).toMatchObject({
      ok: false,
      error: { code: 'invalid_date', param: 'to' },
    });
    expect(statementPeriod({ from: '2026-11-02', to: '2026-11-01' }, now)).toMatchObject({
      ok: false,
      error: { code: 'invalid_period' },
    });
    expect(statementPeriod({ from: '2025-11-25', to: '2026-11-25' }, now).ok).toBe(true);
    expect(statementPeriod({ from: '2025-11-24', to: '2026-11-25' }, now)).toMatchObject({
      ok: false,
      error: { code: 'invalid_period' },
    });
  });
});
