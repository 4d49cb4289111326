import { awaitingOutcome, sendAtFromForm, WATCH_SCHEDULED_WITHIN_MS } from './outcome-refresh';

describe('awaitingOutcome', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  const at = (ms: number) => new Date(now + ms).toISOString();

  it('waits for messages on their way, not for final ones', () => {
    expect(awaitingOutcome([{ status: 'QUEUED' }], now)).toBe(true);
    expect(awaitingOutcome([{ status: 'SENT' }, { status: 'DELIVERED' }], now)).toBe(true);
    expect(
      awaitingOutcome([{ status: 'DELIVERED' }, { status: 'CANCELED' }, { status: 'EXPIRED' }], now),
    ).toBe(false);
    expect(awaitingOutcome([], now)).toBe(false);
  });

  it('waits for a scheduled message only once it is close to its send_at', () => {
    expect(awaitingOutcome([{ status: 'SCHEDULED', send_at: at(WATCH_SCHEDULED_WITHIN_MS) }], now)).toBe(
      true,
    );
    expect(awaitingOutcome([{ status: 'SCHEDULED', send_at: at(WATCH_SCHEDULED_WITHIN_MS + 1) }], now)).toBe(
      false,
    );
    expect(awaitingOutcome([{ status: 'SCHEDULED', send_at: at(-5_000) }], now)).toBe(true);
  });
});

describe('sendAtFromForm', () => {
  it('reads the datetime-local field as Ghana time (GMT), and leaves anything else to the send path', () => {
    expect(sendAtFromForm('')).toBeUndefined();
    expect(sendAtFromForm('  ')).toBeUndefined();
    expect(sendAtFromForm('2026-12-01T09:30')).toBe('2026-12-01T09:30:00Z');
    expect(sendAtFromForm('2026-12-01T09:30:15')).toBe('2026-12-01T09:30:15Z');
    expect(sendAtFromForm('2026-12-01T09:30:00+01:00')).toBe('2026-12-01T09:30:00+01:00');
    expect(sendAtFromForm('tomorrow')).toBe('tomorrow');
  });
});
