import { watchWal, WalWatch } from '../../sqlite/wal-watch';

export interface OtherWritersOptions {
  /** The log's database file (its WAL, `<file>-wal`, is what is watched). */
  readonly file: string;
  /** How often the log is looked at while writes are coming, and always where it cannot be watched. */
  readonly pollMs: number;
  /** The safety net while resting on the watch: the log is looked at this often anyway. */
  readonly restPollMs: number;
  /** Writes closer together than this keep the store polling; with none for this long it rests. */
  readonly restAfterMs: number;
  /** How long after the watch hears a write the log is looked at: a thread's notice of it comes first. */
  readonly noticeGraceMs: number;
  /** False: never watch (poll every `pollMs`). */
  readonly watch: boolean;
}

/**
 * When the event store looks for appends that did not come through this process (another
 * process on the same file, or the other thread when its notice is late): one look for the whole
 * store, never one poll per subscription. `look` reads the log's head and says whether anything
 * unknown came (the store then wakes its subscriptions).
 *
 * Two paces. At rest the WAL file is watched (watchWal): a write by anyone is looked for once,
 * `noticeGraceMs` after the watch hears it, and nothing else wakes the store but a look every
 * `restPollMs` as a net; a lone write (a lease renewal, a heartbeat's) costs one look. Once
 * writes come close together (this store's own commits or the other thread's notices, twice
 * within `restAfterMs`) or a look finds another writer's appends, the watch would hear every
 * commit, so it is put away and the log is looked at every `pollMs` instead, as every
 * subscription used to poll; `restAfterMs` after the last write the store rests again, setting
 * the watch before a last look (after the grace) so that no write falls between the two. Where
 * the file cannot be watched, resting is polling every `pollMs` as before.
 */
export class OtherWriters {
  private timer: NodeJS.Timeout | null = null;
  private watcher: WalWatch | null = null;
  private running = false;
  /** The last write heard of (epoch ms). */
  private lastWrite = 0;
  private canWatch: boolean;
  /** At rest, a look is set for just after a write the watch heard… */
  private lookSoon = false;
  /** …and the watch heard another before it: one more look follows it. */
  private heardAgain = false;

  constructor(
    private readonly options: OtherWritersOptions,
    private readonly look: () => boolean,
  ) {
    this.canWatch = options.watch;
  }

  /** Whether it rests on the watch of the file (for tests). */
  get resting(): boolean {
    return this.watcher !== null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.busy();
  }

  stop(): void {
    this.running = false;
    this.clearTimer();
    this.watcher?.close();
    this.watcher = null;
  }

  /**
   * Something was written that this store knows of (its own commit, the other thread's notice).
   * At rest a lone write changes nothing (the watch hears it and one look follows); writes close
   * together end the rest.
   */
  written(): void {
    const previous = this.lastWrite;
    this.lastWrite = Date.now();
    if (this.running && this.watcher && this.lastWrite - previous < this.options.restAfterMs) this.busy();
  }

  /** Writes are coming: look every `pollMs` until they stop. */
  private busy(): void {
    this.lastWrite = Date.now();
    if (!this.running || (this.timer && !this.watcher)) return;
    this.watcher?.close();
    this.watcher = null;
    this.heardAgain = false;
    this.schedule(this.options.pollMs);
  }

  private schedule(delayMs: number): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      // After the I/O of this turn: a thread's notice waiting to be read is taken in first.
      setImmediate(() => this.tick());
    }, delayMs);
    this.timer.unref?.();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private tick(): void {
    this.lookSoon = false;
    if (!this.running) return;
    if (this.look()) return this.busy(); // another writer is about: poll while it writes
    if (this.watcher && this.heardAgain) {
      this.heardAgain = false;
      this.lookSoon = true;
      return this.schedule(this.options.noticeGraceMs);
    }
    if (this.watcher) return this.schedule(this.options.restPollMs); // the net under the watch
    if (Date.now() - this.lastWrite < this.options.restAfterMs || !this.rest())
      this.schedule(this.options.pollMs);
  }

  /** Sets the watch, then looks once more (a write between the last look and the watch is seen then). */
  private rest(): boolean {
    if (!this.canWatch) return false;
    this.watcher = watchWal(
      this.options.file,
      () => this.heard(),
      () => {
        // The watch stopped working: poll, and try to watch again at the next rest.
        this.watcher = null;
        this.busy();
      },
    );
    if (!this.watcher) {
      this.canWatch = false; // cannot be watched here: poll as before
      return false;
    }
    // A commit whose frames were written just before the watch was set becomes visible a moment
    // later: the first look at rest comes after the grace, as after a write heard.
    this.lookSoon = true;
    this.schedule(this.options.noticeGraceMs);
    return true;
  }

  /**
   * The watch heard a write: look for it soon (one look for the writes heard until then). Only
   * what the look finds, or writes this store is told of (written), end the rest.
   */
  private heard(): void {
    if (!this.watcher) return;
    if (this.lookSoon) {
      this.heardAgain = true; // maybe a commit the look set for an earlier one is too early for
      return;
    }
    this.lookSoon = true;
    this.schedule(this.options.noticeGraceMs);
  }
}
