import { formatDate, formatDayMonth, formatMonth, formatTime, formatWait, label, plural } from './wording';

describe('wording', () => {
  it.each([
    [0, 'credit', undefined, '0 credits'],
    [1, 'credit', undefined, '1 credit'],
    [2, 'segment', undefined, '2 segments'],
    [20000, 'message', undefined, '20,000 messages'],
    [1, 'entry', 'entries', '1 entry'],
    [3, 'entry', 'entries', '3 entries'],
  ])('plural(%p, %p) is %p', (count, one, other, expected) => {
    expect(plural(count, one, other)).toBe(expected);
  });

  it('shows a time in Ghana time, one format, whatever the machine zone', () => {
    expect(formatTime('2026-11-25T14:05:09.123Z')).toBe('25 Nov 2026, 14:05');
    expect(formatTime('2026-01-03T00:00:00Z')).toBe('3 Jan 2026, 00:00');
    expect(formatTime(null)).toBe('');
    expect(formatTime('not a time')).toBe('');
  });

  it('shows a day', () => {
    expect(formatDate('2026-11-25')).toBe('25 Nov 2026');
    expect(formatDate('2026-11-25T23:59:00Z')).toBe('25 Nov 2026');
  });

  it('shows a day on a chart axis without its year', () => {
    expect(formatDayMonth('2026-11-05')).toBe('5 Nov');
    expect(formatDayMonth('')).toBe('');
  });

  it('shows a month', () => {
    expect(formatMonth('2026-11')).toBe('November 2026');
    expect(formatMonth('2027-01')).toBe('January 2027');
    expect(formatMonth(null)).toBe('');
    expect(formatMonth('soon')).toBe('');
  });

  it('labels API values', () => {
    expect(label('transactional')).toBe('Transactional');
    expect(label('in_progress')).toBe('In progress');
    expect(label('DELIVERED')).toBe('Delivered');
    expect(label(null)).toBe('');
  });

  it('words a wait', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(45)).toBe('45 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(61)).toBe('2 minutes');
  });
});
