import { logsInfo, pinoLevel } from './log-levels';

describe('LOG_LEVEL', () => {
  it("maps to pino's threshold, debug including Nest's verbose lines", () => {
    expect(pinoLevel('silent')).toBe('silent');
    expect(pinoLevel('error')).toBe('error');
    expect(pinoLevel('warn')).toBe('warn');
    expect(pinoLevel('info')).toBe('info');
    expect(pinoLevel('debug')).toBe('trace');
  });

  it('treats an unknown value as info, as before', () => {
    expect(pinoLevel('loud' as never)).toBe('info');
    expect(logsInfo('loud' as never)).toBe(true);
  });

  it('writes access lines at info and debug only', () => {
    expect([logsInfo('silent'), logsInfo('error'), logsInfo('warn')]).toEqual([false, false, false]);
    expect([logsInfo('info'), logsInfo('debug')]).toEqual([true, true]);
  });
});
