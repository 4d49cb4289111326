import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedStoreOnly } from '../support/engines';
import {
  countBy,
  ensureBuilt,
  killAllStarted,
  ProcMerchant,
  provisionMerchants,
  readEvents,
  ServerProcess,
  startServer,
  until,
} from '../support/server-process';
import { request } from '../support/test-app';

/**
 * Audiences on the real, built server (`dist/main.js`) as its own process, on the embedded store:
 * a CSV import killed with SIGKILL in the middle resumes after the restart from the log and applies
 * every row exactly once; and two processes on one store never give one number to two contacts.
 */
jest.setTimeout(300_000);
const { it, beforeAll } = embeddedStoreOnly('the import is checked against events.db itself');

const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-imports-'));
const ENV = { LOG_LEVEL: 'warn', CONTACT_IMPORT_POLL_MS: '100' };
const ROWS = 30_000;

let merchant: ProcMerchant;
let server: ServerProcess;

beforeAll(async () => {
  await ensureBuilt();
  [merchant] = await provisionMerchants(dataDir, 1);
  server = await startServer({ dataDir, env: ENV, built: true });
});

afterAll(async () => {
  await killAllStarted();
  rmSync(dataDir, { recursive: true, force: true });
});

const json = (s: ServerProcess, method: string, path: string, body?: unknown) =>
  s.request(method, path, { key: merchant.testKey, ...(body === undefined ? {} : { body }) });

it('an import killed (SIGKILL) midway resumes after the restart and applies every row once', async () => {
  const group = (await json(server, 'POST', '/v1/groups', { name: 'Resumed' })).body;
  const rows = Array.from(
    { length: ROWS },
    (_, i) => `02460${String(i).padStart(5, '0')},Parent ${i},JSS ${i % 3}`,
  );
  const started = await request(
    server.baseUrl,
    'POST',
    `/v1/contact_imports?group=${group.id}&default_country=GH`,
    {
      key: merchant.testKey,
      body: `phone_number,name,class\n${rows.join('\n')}\n`,
      headers: { 'content-type': 'text/csv' },
    },
  );
  expect(started.status).toBe(202);
  const importId: string = started.body.id;
  // Killed once some chunks are in and more are to come.
  const midway = await until(
    async () => {
      const progress = (await json(server, 'GET', `/v1/contact_imports/${importId}`)).body;
      return progress.rows_done >= 3000 ? progress : undefined;
    },
    120_000,
    'the import to be under way',
  );
  expect(midway.status).toBe('processing');
  const killed = await server.kill('SIGKILL');
  expect(killed.signal).toBe('SIGKILL');
  const progressedBeforeRestart = readEvents(dataDir, 'contact').filter(
    (e) => e.streamId === `contact-import-${importId}` && e.type === 'ContactImportProgressed',
  ).length;
  expect(progressedBeforeRestart).toBeLessThan(ROWS / 1000);

  server = await startServer({ dataDir, env: ENV, built: true, port: server.port });
  const done = await until(
    async () => {
      const progress = (await json(server, 'GET', `/v1/contact_imports/${importId}`)).body;
      return progress.status === 'processing' ? undefined : progress;
    },
    180_000,
    'the import to finish after the restart',
  );
  expect(done).toMatchObject({
    status: 'completed',
    rows_total: ROWS,
    rows_done: ROWS,
    created: ROWS,
    updated: 0,
    errors_count: 0,
  });

  // The record: every chunk applied once, in order, and each number given to one contact once.
  const events = readEvents(dataDir, 'contact');
  const chunks = events
    .filter((e) => e.streamId === `contact-import-${importId}` && e.type === 'ContactImportProgressed')
    .map((e) => e.data.chunk);
  expect(chunks).toEqual(Array.from({ length: ROWS / 1000 }, (_, i) => i));
  const takers = events.filter(
    (e) => e.streamId === `contact-import-${importId}` && e.type === 'ContactImportTaken',
  );
  expect(new Set(takers.map((e) => e.data.instance)).size).toBe(2);
  const created = events.filter((e) => e.type === 'ContactCreated' && e.data.walletId === merchant.wallet);
  expect(created).toHaveLength(ROWS);
  expect([...countBy(created, (e) => e.data.phoneNumber).values()].every((n) => n === 1)).toBe(true);
  const claims = events.filter(
    (e) => e.type === 'ContactNumberClaimed' && e.data.walletId === merchant.wallet,
  );
  expect(claims).toHaveLength(ROWS);
  expect((await json(server, 'GET', `/v1/groups/${group.id}`)).body.contacts).toBe(ROWS);
});

it('two processes on one store never give one number to two contacts', async () => {
  const second = await startServer({ dataDir, env: ENV, built: true });
  try {
    for (let round = 0; round < 5; round++) {
      const number = `+23324700${String(round).padStart(4, '0')}`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          json(i % 2 ? second : server, 'POST', '/v1/contacts', { phone_number: number }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const refused of answers.filter((a) => a.status === 409))
        expect(refused.body.error).toMatchObject({ code: 'contact_exists', param: 'phone_number' });
    }
    const claims = readEvents(dataDir, 'contact').filter(
      (e) => e.type === 'ContactNumberClaimed' && e.data.phoneNumber.startsWith('+23324700'),
    );
    expect(claims).toHaveLength(5);
  } finally {
    await second.kill('SIGTERM');
  }
});
