import { Worker } from 'node:worker_threads';
import { extname, join } from 'node:path';

/**
 * Checkpoints the embedded stores' WAL files from a thread of their own: the threads that commit
 * then only append to the WAL (their connections have wal_autocheckpoint off), and the copying
 * back into the database files, with its fsync, happens beside them. PASSIVE checkpoints never
 * block a writer or a reader. Once a second while the files are written to: the pages every
 * commit touches (the tail of each table and index) are copied back once per round, so ten rounds
 * a second copied them ten times (twice the checkpointer's CPU at 200 sends/s, for a WAL that
 * stays a few MB either way). With nothing written the thread rests on a watch of the WAL files.
 */
export class WalCheckpointer {
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  }

  static start(
    files: readonly string[],
    onError: (error: unknown) => void,
    intervalMs = 1000,
  ): WalCheckpointer {
    // The thread runs the sibling file of this one: .js when built, .ts under ts-node (whose
    // require hook the thread inherits with the process's exec arguments).
    const worker = new Worker(join(__dirname, `wal-checkpointer.worker${extname(__filename)}`), {
      workerData: { files, intervalMs },
      // A few MB: it only runs one pragma now and then (about 6 MB of it in memory behind a
      // campaign). `npm start`'s V8 flags are the process's and override this cap (see
      // worker-thread.ts); it holds where node runs without them. Under ts-node (npm run
      // start:dev, the tests' servers) the thread also loads the TypeScript compiler, which 16 MB
      // cannot hold: it died at start-up and the WAL files grew until the next restart.
      resourceLimits: extname(__filename) === '.js' ? { maxOldGenerationSizeMb: 16 } : undefined,
    });
    worker.on('error', onError);
    worker.unref();
    return new WalCheckpointer(worker);
  }

  /** Runs a last checkpoint and stops the thread. */
  async stop(): Promise<void> {
    // Held until it has exited: unreferenced, the thread kept nothing alive, and a server whose
    // last work was this wait simply ended here, mid-shutdown, before the later shutdown hooks
    // (the stores' close) and the graceful stop's own end had run.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
