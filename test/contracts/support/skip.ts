import { announceSkip } from '../../support/engines';

/** Skips a whole contract suite and says why (announceSkip). */
export function skipSuite(title: string, reason: string): void {
  announceSkip(reason);
  describe.skip(`${title} (${reason})`, () => {
    it('runs once its server URL is set', () => undefined);
  });
}
