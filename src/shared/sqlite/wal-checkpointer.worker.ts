import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { watchWal, WalWatch } from './wal-watch';

/**
 * The WalCheckpointer's thread: a PASSIVE checkpoint of each file every `intervalMs` while it is
 * written to. A round in which no file changed (`data_version`: another connection committed)
 * ends in a rest: the WAL files are watched (watchWal) and the next write anyone makes starts
 * the rounds again, so an idle server's checkpointer does not wake at all. Where a file cannot
 * be watched it keeps its rounds, as it always did.
 */
const { files, intervalMs } = workerData as { files: string[]; intervalMs: number };
const stores = files.map((file) => {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  return { file, db, version: null as number | null };
});
let timer: NodeJS.Timeout | null = null;
let watches: WalWatch[] = [];

function checkpoint(db: Database.Database): void {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // The next round tries again; the WAL only grows meanwhile.
    process.stderr.write(`WAL checkpoint of ${db.name} failed: ${String(error)}\n`);
  }
}

/** Checkpoints the files written since they were last looked at; answers whether there were any. */
function checkpointChanged(): boolean {
  let changed = false;
  for (const store of stores) {
    let version: number;
    try {
      version = store.db.pragma('data_version', { simple: true }) as number;
    } catch {
      version = Number.NaN; // unknown: checkpoint anyway
    }
    if (version === store.version) continue;
    store.version = version;
    changed = true;
    checkpoint(store.db);
  }
  return changed;
}

function round(): void {
  timer = null;
  if (checkpointChanged()) return schedule();
  rest();
}

function schedule(): void {
  timer ??= setTimeout(round, intervalMs);
}

/** Watches every WAL, then looks once more: a write between the last round and the watch is not missed. */
function rest(): void {
  const set: WalWatch[] = [];
  for (const { file } of stores) {
    const watch = watchWal(file, wake, wake);
    if (!watch) {
      for (const w of set) w.close();
      return schedule(); // cannot watch here: keep the rounds
    }
    set.push(watch);
  }
  watches = set;
  if (checkpointChanged()) wake();
}

function wake(): void {
  for (const watch of watches) watch.close();
  watches = [];
  schedule();
}

schedule();
parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  if (timer) clearTimeout(timer);
  for (const watch of watches) watch.close();
  for (const { db } of stores) checkpoint(db);
  for (const { db } of stores) db.close();
  process.exit(0);
});
