import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/shared/event-store/sqlite/sqlite-event-store.adapter';
import { walletStream } from '../../src/wallet/domain/wallet.events';
import { runCliProcess } from '../support/cli';

jest.setTimeout(240_000);

const EVENTS = 12_001; // three pages of WalletService.replay (5,000 events each)

/** A TEST wallet with a long history: opened with EVENTS credits, then reserve/capture pairs. */
async function seedLongWallet(dataDir: string, walletId: string): Promise<void> {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    const at = new Date().toISOString();
    let revision = (
      await store.append(
        walletStream(walletId),
        [
          {
            type: 'WalletOpened',
            data: { walletId, accountId: 'acct_progress', environment: 'TEST', openedAt: at },
          },
          {
            type: 'CreditsAdded',
            data: { sourceId: 'seed', source: 'operator_grant', sms: EVENTS, reason: 'seed', addedAt: at },
          },
        ],
        'no_stream',
      )
    ).nextExpectedRevision;
    for (let n = 2; n < EVENTS;) {
      const chunk = [];
      for (; chunk.length < 2000 && n < EVENTS; n += 2) {
        chunk.push({ type: 'CreditsReserved', data: { messageId: `msg_${n}`, sms: 1, reservedAt: at } });
        if (n + 1 < EVENTS)
          chunk.push({ type: 'ReservationCaptured', data: { messageId: `msg_${n}`, sms: 1 } });
      }
      revision = (await store.append(walletStream(walletId), chunk, revision)).nextExpectedRevision;
    }
  } finally {
    await store.close();
  }
}

const progressLines = (stderr: string, label: string) =>
  stderr.split('\n').filter((line) => line.startsWith(`${label}: `));

describe('operator CLI progress on stderr for long work', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sms-wallet-progress-'));
  const walletId = 'wal_progress';
  beforeAll(() => seedLongWallet(dataDir, walletId));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('wallet:replay reports events folded and the rate per page, and its JSON line is unchanged', async () => {
    const { code, output, stderr } = await runCliProcess(dataDir, ['wallet:replay', '--wallet', walletId], {
      CLI_PROGRESS_MS: '0',
    });
    expect(code).toBe(0);
    // 12,001 credits in; 5,999 reserve/capture pairs and one reservation still open.
    expect(output).toEqual({
      wallet: walletId,
      events: EVENTS,
      sms_left: 6001,
      read_model_sms_left: 6001,
      credits_in: EVENTS,
      captured: 5999,
      reserved: 1,
      open_reservations: 1,
      held: 0,
      consistent: true,
    });
    const lines = progressLines(stderr, 'wallet:replay');
    expect(lines.slice(0, 3).map((l) => l.split(' in ')[0])).toEqual([
      'wallet:replay: 5,000 events',
      'wallet:replay: 10,000 events',
      'wallet:replay: 12,001 events',
    ]);
    expect(lines.at(-1)).toMatch(/^wallet:replay: 12,001 events in \d+\.\d s( \([\d,]+\/s\))?, done$/);
  });

  it('projections:rebuild reports events applied and the log position, and its JSON line is unchanged', async () => {
    const { code, output, stderr } = await runCliProcess(dataDir, ['projections:rebuild'], {
      CLI_PROGRESS_MS: '0',
    });
    expect(code).toBe(0);
    expect(output).toEqual({
      rebuilt: expect.arrayContaining(['wallet-balances', 'accounts', 'messages']),
      ms: expect.any(Number),
    });
    const lines = progressLines(stderr, 'projections:rebuild');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]).toMatch(
      /^projections:rebuild: [\d,]+ events applied in \d+\.\d s( \([\d,]+\/s\))?, position \d+ of 12001 \(\d+%\)$/,
    );
    expect(lines).toContainEqual(expect.stringMatching(/, position 12001 of 12001 \(100%\)$/));
    expect(lines.at(-1)).toMatch(/^projections:rebuild: [\d,]+ events applied in .*, done$/);
  });
});
