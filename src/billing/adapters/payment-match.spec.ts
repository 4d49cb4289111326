import { paymentMatches } from './payment-match';

describe('paymentMatches', () => {
  const expected = { amount: 5000, currency: 'GHS' };

  it('is true for the same integer amount and currency', () => {
    expect(paymentMatches({ amount: 5000, currency: 'GHS' }, expected)).toBe(true);
    expect(paymentMatches({ amount: 5000, currency: 'ghs' }, expected)).toBe(true);
  });

  it('is false for under- and over-payment', () => {
    expect(paymentMatches({ amount: 4999, currency: 'GHS' }, expected)).toBe(false);
    expect(paymentMatches({ amount: 5001, currency: 'GHS' }, expected)).toBe(false);
    expect(paymentMatches({ amount: 50, currency: 'GHS' }, expected)).toBe(false);
  });

  it('is false for another currency, even with the same number', () => {
    expect(paymentMatches({ amount: 5000, currency: 'NGN' }, expected)).toBe(false);
    expect(paymentMatches({ amount: 5000, currency: '' }, expected)).toBe(false);
  });

  it('is false for non-integer or non-number amounts', () => {
    expect(paymentMatches({ amount: 5000.0001, currency: 'GHS' }, expected)).toBe(false);
    expect(paymentMatches({ amount: Number.NaN, currency: 'GHS' }, expected)).toBe(false);
    expect(paymentMatches({ amount: '5000' as unknown as number, currency: 'GHS' }, expected)).toBe(false);
    expect(paymentMatches({ amount: 0, currency: '' }, { amount: 0, currency: '' })).toBe(false);
  });
});
