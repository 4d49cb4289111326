import { formatMoney } from './money';

describe('formatMoney', () => {
  it('formats integer minor units', () => {
    expect(formatMoney(5000, 'GHS')).toBe('GHS 50.00');
    expect(formatMoney(5, 'ghs')).toBe('GHS 0.05');
    expect(formatMoney(123456789, 'GHS')).toBe('GHS 1,234,567.89');
    expect(formatMoney(-250, 'GHS')).toBe('GHS -2.50');
  });
});
