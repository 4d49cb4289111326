import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from '../support/run-process';
import { killAllStarted, ServerProcess, startServer } from '../support/server-process';

jest.setTimeout(300_000); // the block's first `npm run cli` may build dist/ first: slow on a busy machine

const ROOT = join(__dirname, '..', '..');

/** The shell block right after `<!-- first-message: … -->` in README.md, exactly as a reader copies it. */
function firstMessageBlock(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const match = /<!-- first-message:[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no <!-- first-message: --> marker followed by a ```sh block');
  return match[1];
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("README's first message, run as written against a real server", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => killAllStarted());

  it('uses nothing a fresh Debian machine lacks and nothing a reader must fill in', () => {
    const block = firstMessageBlock();
    expect(block).not.toMatch(/uuidgen|…|<[a-z_ ]+>|sms_test_|msg_/);
  });

  it('creates an account and a key, sends a QUEUED message and reads it back', async () => {
    // -e and pipefail: a step that fails fails the block (a reader would see its error and stop).
    const { code, stdout, stderr } = await runProcess(
      'bash',
      ['-e', '-o', 'pipefail', '-c', firstMessageBlock()],
      {
        cwd: ROOT,
        env: { PORT: String(server.port), DATA_DIR: server.dataDir, LOG_LEVEL: 'error' },
      },
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) });

    const [account, sent, read] = jsonLines(stdout);
    expect(account).toMatchObject({ id: expect.stringMatching(/^acct_/), email: 'you@example.com' });
    expect(sent).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      object: 'message',
      status: 'QUEUED',
      environment: 'TEST',
      to: '+233200000001',
    });
    expect(read).toMatchObject({ id: sent.id, object: 'message' });
    expect(['QUEUED', 'SENT', 'DELIVERED']).toContain(read.status);
  });
});
