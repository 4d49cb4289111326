import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** The WalCheckpointer's thread: a PASSIVE checkpoint of each file every `intervalMs`. */
const { files, intervalMs } = workerData as { files: string[]; intervalMs: number };
const connections = files.map((file) => {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  return db;
});

function checkpoint(): void {
  for (const db of connections) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      // The next round tries again; the WAL only grows meanwhile.
      process.stderr.write(`WAL checkpoint of ${db.name} failed: ${String(error)}\n`);
    }
  }
}

const timer = setInterval(checkpoint, intervalMs);
parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  for (const db of connections) db.close();
  process.exit(0);
});
