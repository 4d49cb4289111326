import { isSandboxNumber, SANDBOX_NUMBERS, sandboxOutcome, simulatedOutcome } from './sandbox';

describe('sandbox numbers', () => {
  it('are the four numbers of API.md', () => {
    expect(SANDBOX_NUMBERS).toEqual(['+233200000001', '+233200000002', '+233200000003', '+233200000004']);
    expect(isSandboxNumber('+233200000001')).toBe(true);
    expect(isSandboxNumber('+233200000005')).toBe(false);
  });

  it('have fixed outcomes', () => {
    expect(sandboxOutcome('+233200000001')).toMatchObject({
      stage: 'receipt',
      status: 'DELIVERED',
      errorCode: null,
    });
    expect(sandboxOutcome('+233200000002')).toMatchObject({
      stage: 'receipt',
      status: 'FAILED',
      errorCode: 'undeliverable',
    });
    expect(sandboxOutcome('+233200000003')).toMatchObject({ stage: 'receipt', status: 'EXPIRED' });
    expect(sandboxOutcome('+233200000004')).toMatchObject({ stage: 'submit', errorCode: 'rejected' });
  });

  it('leave every other number delivered under TEST', () => {
    expect(sandboxOutcome('+233241234567')).toBeNull();
    expect(simulatedOutcome('+233241234567')).toMatchObject({
      stage: 'receipt',
      status: 'DELIVERED',
      carrierStatus: 'DELIVRD',
    });
    expect(simulatedOutcome('+233200000002')).toMatchObject({ status: 'FAILED' });
  });
});
