/**
 * Skips a whole contract suite and says why. The reason goes to console.warn and straight to
 * stderr as well: jest's default reporter holds back the console of a file whose tests were
 * all skipped when it runs several files, and the reason must always be seen.
 */
export function skipSuite(title: string, reason: string): void {
  console.warn(reason);
  process.stderr.write(`${reason}\n`);
  describe.skip(`${title} (${reason})`, () => {
    it('runs once its server URL is set', () => undefined);
  });
}
