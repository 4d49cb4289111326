import { formatCount, formatMoney } from './money';

describe('formatMoney', () => {
  it('formats integer minor units', () => {
    expect(formatMoney(5000, 'GHS')).toBe('GHS 50.00');
    expect(formatMoney(5, 'ghs')).toBe('GHS 0.05');
    expect(formatMoney(123456789, 'GHS')).toBe('GHS 1,234,567.89');
    expect(formatMoney(-250, 'GHS')).toBe('GHS -2.50');
  });
});

describe('formatCount', () => {
  it('puts thousand separators in whole numbers', () => {
    expect(formatCount(20000)).toBe('20,000');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1500)).toBe('-1,500');
  });
});
