import { nestLogLevels } from './log-levels';

describe('LOG_LEVEL', () => {
  it('maps to the Nest levels up to the one configured', () => {
    expect(nestLogLevels('silent')).toEqual([]);
    expect(nestLogLevels('error')).toEqual(['fatal', 'error']);
    expect(nestLogLevels('info')).toEqual(['fatal', 'error', 'warn', 'log']);
    expect(nestLogLevels('debug')).toEqual(['fatal', 'error', 'warn', 'log', 'debug', 'verbose']);
  });
});
