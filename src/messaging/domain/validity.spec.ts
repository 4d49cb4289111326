import { VALIDITY_MS, validUntilFor } from './validity';

describe('validity', () => {
  it('is 48 hours LIVE and 10 minutes TEST', () => {
    const createdAt = new Date('2026-01-01T00:00:00.000Z');
    expect(validUntilFor('LIVE', createdAt)).toBe('2026-01-03T00:00:00.000Z');
    expect(validUntilFor('TEST', createdAt)).toBe('2026-01-01T00:10:00.000Z');
    expect(VALIDITY_MS.TEST).toBe(600_000);
  });
});
