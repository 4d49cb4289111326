import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { messageCost } from '../../messaging/domain/message-cost';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { staleBrowserScripts } = require('../../../scripts/build-browser') as {
  staleBrowserScripts: () => string[];
};

describe('the console browser bundle of the cost rules', () => {
  it('is the bundle of the current domain code (run `npm run build` when this fails)', () => {
    expect(staleBrowserScripts()).toEqual([]);
  });

  it('answers what the server answers for the same text', () => {
    const sandbox: Record<string, unknown> = {};
    sandbox.globalThis = sandbox;
    runInNewContext(readFileSync(join(__dirname, '..', 'assets', 'message-cost.js'), 'utf8'), sandbox);
    const browser = sandbox.smsMessageCost as { messageCost: typeof messageCost };
    for (const text of ['Hello', 'Hello 😀', 'x'.repeat(161), '[€]'.repeat(60), 'ж'.repeat(700)])
      expect(browser.messageCost(text)).toEqual(messageCost(text));
  });
});
