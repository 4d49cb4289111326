import type Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import {
  AppendResult,
  ConcurrencyError,
  EventFilter,
  EventStore,
  ExpectedRevision,
  expectationHolds,
  matchesFilter,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { openSqlite, SqliteOptions } from '../../sqlite/sqlite-database';
import { GroupCommit } from '../../sqlite/group-commit';
import { guarded } from '../../sqlite/sqlite-errors';
import { OtherWriters } from './other-writers';
import { type BlockWait, LogBlocks } from './log-blocks';

/** An event as stored; what a store tells another thread of its commits (CommittedRows). */
export interface EventRow {
  position: number | bigint;
  stream_id: string;
  revision: number | bigint;
  type: string;
  data: string;
  metadata: string | null;
  recorded_at: string;
}

/**
 * Every index is written by every commit (a WAL frame per B-tree page touched), so the log keeps
 * only those its reads need: a stream's events by revision, and a category's by position (every
 * filtered subscription names its stream prefixes). Positions need no AUTOINCREMENT (events are
 * never deleted, so max + 1 is never reused) and its counter page cost a frame per commit.
 * A log created before keeps its AUTOINCREMENT; its type index, which nothing reads, is dropped.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position    INTEGER PRIMARY KEY,
  stream_id   TEXT    NOT NULL,
  category    TEXT    NOT NULL,
  revision    INTEGER NOT NULL,
  type        TEXT    NOT NULL,
  data        TEXT    NOT NULL,
  metadata    TEXT,
  recorded_at TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
);
CREATE INDEX IF NOT EXISTS events_by_category ON events (category, position);
DROP INDEX IF EXISTS events_by_type;
`;

/** What an append in this process tells the subscriptions: which stream, which types, which positions. */
interface AppendNotice {
  readonly streamId: string;
  readonly types: readonly string[];
  readonly first: bigint;
  readonly last: bigint;
}

const COLUMNS = 'position, stream_id, revision, type, data, metadata, recorded_at';

/** A stream's category is the part before its first dash: `wallet-wal_1` is in `wallet`. */
const categoryOf = (streamId: string) => {
  const dash = streamId.indexOf('-');
  return dash < 0 ? streamId : streamId.slice(0, dash);
};

/** One request of the group commit: a single append, or several written all or none. */
type AppendRequest = readonly StreamAppend[];

interface Written {
  readonly nextExpectedRevision: bigint;
  readonly first: bigint;
  readonly position: bigint;
  /** The rows as inserted, so the recent appends can be parsed from the exact stored text. */
  readonly rows: readonly EventRow[];
}

/** SQLite's answer to a second row with the same (stream_id, revision). */
const isDuplicateRevision = (error: unknown) =>
  (error as { code?: unknown })?.code === 'SQLITE_CONSTRAINT_UNIQUE';

/** A page of the log and how far it looked (see readAllNow). */
interface Page {
  readonly events: RecordedEvent[];
  readonly scannedTo: bigint;
}

/**
 * How many of this process' latest events the subscriptions are served from memory (about a
 * few MB parsed): enough for every subscription that keeps up with the appends.
 */
const RECENT_APPENDS = 4096;
/** Most events read at once into the recent appends for the subscriptions to share. */
const SHARED_TAIL_READ = 2048;
/**
 * Reading the log's tail once for all is worth it when several subscriptions follow it; with one
 * or two (say, a cache listener) a filtered read of what they want is cheaper than parsing all.
 */
const SHARED_TAIL_MIN_SUBSCRIPTIONS = 3;

export interface SqliteEventStoreOptions extends SqliteOptions {
  /**
   * How often the store looks for appends made by other processes while writes are coming, and
   * always where the file cannot be watched (OtherWriters).
   */
  readonly pollIntervalMs?: number;
  /** False: never watch the WAL file, poll every `pollIntervalMs` instead (tests of that path). */
  readonly watch?: boolean;
  /** At rest on the watch, the log is still looked at this often (5 s): a net, not the way appends are found. */
  readonly restPollMs?: number;
  /** So long without writes and the store rests on the watch (1 s). */
  readonly restAfterMs?: number;
}

const REST_POLL_MS = 5_000;
const REST_AFTER_MS = 1_000;
/** A write seen by the watch is looked for this much later: the other thread's notice of it comes first. */
const NOTICE_GRACE_MS = 10;

/**
 * The embedded event store: one SQLite file. An append is one IMMEDIATE transaction that
 * checks the stream's revision and inserts its events, so the check and the write are atomic
 * across processes too; the UNIQUE (stream_id, revision) constraint is the last line of defence.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly appended = new EventEmitter();
  private readonly subscriptions = new Set<Subscription>();
  private readonly statements;
  // Transaction functions are built once: wrapping a fresh closure per call cost more than the query.
  private readonly appends: GroupCommit<AppendRequest, Written[]>;
  /** Several streams' appends commit in one transaction here. */
  readonly atomicMultiStreamAppends = true;
  private readonly readAllTransaction;
  /**
   * The events this process committed last, parsed once for all subscriptions instead of read
   * back and parsed again by each. They are shared: subscribers must treat events as read-only.
   */
  private readonly recent = new RecentAppends(RECENT_APPENDS);
  /** The log behind the recent appends, in blocks read once for all the subscriptions behind them. */
  private readonly blocks: LogBlocks;
  /** Looks for other writers' appends for every subscription at once, resting on a watch of the file. */
  private readonly otherWriters: OtherWriters;
  /**
   * The newest position this store knows of without looking: its own commits, the other thread's
   * notices, and what its looks for other writers found. A head beyond it is someone else's append.
   */
  private seen = 0n;
  /**
   * Counts the times other writers' appends were found: a subscription that was busy meanwhile
   * (the wake-up found it reading) sees the count moved and reads again before it waits.
   */
  private externalFinds = 0;

  constructor(file: string, options: SqliteEventStoreOptions = {}) {
    this.db = openSqlite(file, options);
    this.db.exec(SCHEMA);
    this.db.defaultSafeIntegers(true);
    this.appended.setMaxListeners(0);
    this.otherWriters = new OtherWriters(
      {
        file,
        pollMs: options.pollIntervalMs ?? 100,
        restPollMs: options.restPollMs ?? REST_POLL_MS,
        restAfterMs: options.restAfterMs ?? REST_AFTER_MS,
        noticeGraceMs: NOTICE_GRACE_MS,
        watch: options.watch ?? true,
      },
      () => this.lookForOtherWriters(),
    );
    this.statements = {
      currentRevision: this.db.prepare(
        'SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
      ),
      insert: this.db.prepare(
        'INSERT INTO events (stream_id, category, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      head: this.db.prepare('SELECT max(position) AS head FROM events'),
      forwards: this.db.prepare(
        `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC LIMIT ?`,
      ),
      // A whole stream (an aggregate's load) without LIMIT: a bound LIMIT made the same search
      // take twice as long (11 µs against 6 for a message's stream of two events).
      forwardsAll: this.db.prepare(
        `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC`,
      ),
      backwards: this.db.prepare(
        `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`,
      ),
      tail: this.db.prepare(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position ASC LIMIT ?`),
      range: this.db.prepare(
        `SELECT ${COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position ASC`,
      ),
    };
    this.blocks = new LogBlocks((from, to) =>
      (guarded('readAll', () => this.statements.range.all(from, to)) as EventRow[]).map(toRecorded),
    );
    this.appends = new GroupCommit(this.db, {
      operation: 'append',
      write: (request) => this.write(request),
      isRefusal: (error) => error instanceof ConcurrencyError,
      onCommitted: (written) => this.announce(written),
    });
    this.readAllTransaction = this.createReadAllTransaction();
    this.seen = this.head();
  }

  /**
   * Appends are group-committed (GroupCommit): every append requested in one turn of the event
   * loop is written in one IMMEDIATE transaction, each inside its own savepoint, so one stream's
   * ConcurrencyError refuses only that append.
   */
  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const [result] = await this.appendAll([{ streamId, events, expected }]);
    return result;
  }

  /** All or none: the appends share one savepoint of the group's transaction. */
  async appendAll(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    if (appends.length === 0 || appends.some((a) => a.events.length === 0)) {
      throw new Error('append needs at least one event');
    }
    const written = await this.appends.submit(appends);
    return written.map((w) => ({ nextExpectedRevision: w.nextExpectedRevision, position: w.position }));
  }

  /**
   * Tells the subscriptions what a group committed (publish), and whoever listens the rows as
   * stored (the other thread).
   */
  private announce(written: readonly { request: AppendRequest; outcome: Written[] }[]): void {
    const rows = written.flatMap(({ outcome }) => outcome.flatMap((stream) => stream.rows));
    if (rows.length === 0) return;
    this.rememberHead(BigInt(rows[rows.length - 1].position));
    this.publish(rows);
    if (this.appended.listenerCount('committed') > 0) this.appended.emit('committed', rows);
  }

  /**
   * Committed rows, this store's own or another thread's, become the subscriptions' news: they
   * join the recent appends as the rows that were stored, parsed when a subscription first wants
   * one, so they are what a read would give (with no subscription there is no reader, and the
   * window is emptied), the window is known to be the log's tail up to them, and one notice goes
   * out per run of rows of one stream. Events another writer committed just before them are read in
   * first, so the window stays the log's tail without a gap.
   */
  private publish(rows: readonly EventRow[]): void {
    if (this.subscriptions.size === 0) this.recent.clear();
    else
      for (const row of rows) {
        const position = BigInt(row.position);
        const last = this.recent.last;
        if (last !== null && position > last + 1n && position - last <= BigInt(SHARED_TAIL_READ)) {
          this.readIntoRecent(last, position - last - 1n);
        }
        this.recent.add(row);
      }
    const last = BigInt(rows[rows.length - 1].position);
    if (last > this.seen) this.seen = last;
    this.otherWriters.written();
    this.tailKnownTo = this.recent.last === last ? last : null;
    for (const notice of noticesOf(rows)) this.appended.emit('append', notice);
  }

  /** One request inside the group's transaction (its own savepoint): every append, or none. */
  private write(request: AppendRequest): Written[] {
    return request.map((append) => this.writeStream(append));
  }

  /**
   * Checks the stream's revision and inserts its events. A new stream (`no_stream`) needs no
   * look-up: its first row is revision 0, which the UNIQUE (stream_id, revision) constraint
   * refuses if the stream exists, atomically, so the check costs nothing when it passes.
   */
  private writeStream({ streamId, events, expected }: StreamAppend): Written {
    let current = -1n;
    if (expected !== 'no_stream') {
      const row = this.statements.currentRevision.get(streamId) as { revision: bigint } | undefined;
      current = row ? BigInt(row.revision) : -1n;
      if (!expectationHolds(expected, current)) {
        throw new ConcurrencyError(streamId, expected, row ? current : 'no_stream');
      }
    }
    const now = new Date().toISOString();
    const category = categoryOf(streamId);
    let revision = current;
    let first = 0n;
    let position = 0n;
    const rows: EventRow[] = [];
    for (const event of events) {
      revision += 1n;
      const data = JSON.stringify(event.data);
      const metadata = event.metadata ? JSON.stringify(event.metadata) : null;
      let info;
      try {
        info = this.statements.insert.run(streamId, category, revision, event.type, data, metadata, now);
      } catch (error) {
        if (!isDuplicateRevision(error)) throw error;
        throw new ConcurrencyError(streamId, expected, this.revisionOf(streamId));
      }
      position = BigInt(info.lastInsertRowid);
      if (first === 0n) first = position;
      rows.push({
        position,
        stream_id: streamId,
        revision,
        type: event.type,
        data,
        metadata,
        recorded_at: now,
      });
    }
    return { nextExpectedRevision: revision, first, position, rows };
  }

  private revisionOf(streamId: string): bigint | 'no_stream' {
    const row = this.statements.currentRevision.get(streamId) as { revision: bigint } | undefined;
    return row ? BigInt(row.revision) : 'no_stream';
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.limit ?? Number.MAX_SAFE_INTEGER;
    const rows = guarded('readStream', () =>
      options.direction === 'backwards'
        ? this.statements.backwards.all(
            streamId,
            options.fromRevision ?? BigInt(Number.MAX_SAFE_INTEGER),
            limit,
          )
        : options.limit === undefined
          ? this.statements.forwardsAll.all(streamId, options.fromRevision ?? 0n)
          : this.statements.forwards.all(streamId, options.fromRevision ?? 0n, limit),
    ) as EventRow[];
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.readAllNow(options).events;
  }

  /**
   * Reads a page of the log and says how far it looked, so a filtered reader can move past
   * events that did not match instead of scanning them again.
   */
  private readAllNow(options: ReadAllOptions): Page {
    return guarded('readAll', () => this.readAllTransaction(options));
  }

  /** The page and the head are read in one snapshot. */
  private createReadAllTransaction() {
    return this.db.transaction((options: ReadAllOptions): Page => {
      const after = options.after ?? 0n;
      const limit = options.limit ?? 1000;
      const page = pageQuery(options.filter, after, limit);
      const rows = this.prepared(page.sql).all(...page.params) as EventRow[];
      const events = rows.map(toRecorded);
      return { events, scannedTo: scannedTo(events, after, limit, options.filter, () => this.head()) };
    });
  }

  /**
   * A subscription's page from the recent appends, or null when they cannot stand for the log:
   * they must hold the event right after `after`, and nothing may follow them in the log. When
   * the log has moved on (another thread or process appended), the newest events are read once,
   * unfiltered, into the recent appends for every subscription here to share, instead of each
   * subscription querying and parsing them again; a subscription behind that window reads the
   * log itself.
   */
  private recentPage(
    after: bigint,
    limit: number,
    filter: EventFilter | undefined,
    polled: boolean,
  ): Page | null {
    let head =
      !polled && this.tailKnownTo !== null && this.tailKnownTo === this.recent.last
        ? this.tailKnownTo
        : guarded('readAll', () => this.recentHead());
    // Only a window read on to the head stands for the log: one left short of it (the log moved
    // on by more than it holds, another writer's batch) must not pass its end off as the head,
    // or the subscriptions would take the window's end for the log's and rest there.
    if (
      head !== this.recent.last &&
      this.subscriptions.size >= SHARED_TAIL_MIN_SUBSCRIPTIONS &&
      this.extendRecent(after, head)
    ) {
      head = this.recent.last ?? head;
    }
    if (!this.recent.covers(after + 1n) || head !== this.recent.last) return null;
    const events = this.recent.page(after, limit, filter);
    return { events, scannedTo: scannedTo(events, after, limit, filter, () => head) };
  }

  /**
   * A page for a subscription behind the recent appends, from the log's blocks that several
   * subscriptions read together (LogBlocks); null when it is not behind them, or its block is
   * read by itself this time.
   */
  private behindPage(
    reader: object,
    after: bigint,
    limit: number,
    filter: EventFilter | undefined,
  ): Page | BlockWait | null {
    if (this.subscriptions.size < SHARED_TAIL_MIN_SUBSCRIPTIONS || this.recent.covers(after + 1n)) {
      this.blocks.leave(reader);
      return null;
    }
    const page = this.blocks.page(reader, after, limit, filter, this.seen);
    // Reading by itself this time: nobody waits for it (it may read on to the head and rest there).
    if (page === null) this.blocks.leave(reader);
    return page;
  }

  /**
   * Reads the log after what the recent appends hold (or, when they hold nothing `after` needs,
   * right after `after`) up to `head`, if that is few enough events to hold. Says whether it did.
   */
  private extendRecent(after: bigint, head: bigint): boolean {
    const covered = this.recent.covers(after + 1n);
    if (!covered && this.recent.last !== null && after < this.recent.last) return false;
    const from = covered ? (this.recent.last as bigint) : after;
    if (head - from > BigInt(SHARED_TAIL_READ)) return false;
    this.readIntoRecent(from, BigInt(SHARED_TAIL_READ));
    return true;
  }

  /** Up to `count` events of the log after `after`, into the recent appends (parsed when wanted). */
  private readIntoRecent(after: bigint, count: bigint): void {
    const rows = guarded('readAll', () => this.statements.tail.all(after, count)) as EventRow[];
    for (const row of rows) this.recent.add(row);
  }

  /**
   * Another thread of this process appended to this store and says so through a channel of its
   * own, with the rows it committed: when they follow on from the recent appends they join them
   * as this store's own appends would (a subscription they do not concern just moves along, the
   * others read them from memory: no query, no second parse of the log's tail). Without rows, or
   * after a gap (a third writer, or a notice that came late), waiting subscriptions read the log
   * now instead of at their next poll.
   */
  notifyAppended(rows: readonly EventRow[] = []): void {
    const last = this.recent.last;
    const fresh = last === null ? [] : rows.filter((row) => BigInt(row.position) > last);
    const followsOn =
      last !== null &&
      this.subscriptions.size > 0 &&
      fresh.length > 0 &&
      BigInt(fresh[0].position) === last + 1n &&
      fresh.every((row, i) => i === 0 || BigInt(row.position) === BigInt(fresh[i - 1].position) + 1n);
    if (!followsOn) {
      if (last !== null && rows.length > 0 && fresh.length === 0) return; // already read from the log
      for (const row of rows) if (BigInt(row.position) > this.seen) this.seen = BigInt(row.position);
      this.otherWriters.written();
      this.externalAppends();
      return;
    }
    this.publish(fresh);
  }

  /**
   * Whether the log holds appends this store was not told of (another process's, or the other
   * thread's when its notice is late): then every subscription reads the log again. One head
   * query for all of them, asked by OtherWriters while writes are coming and when the file's
   * watch says someone wrote.
   */
  private lookForOtherWriters(): boolean {
    if (this.subscriptions.size === 0 || !this.db.open) return false;
    let head: bigint;
    try {
      head = this.head();
    } catch {
      return false; // busy or failing: the next look, or the subscriptions' own reads, will tell
    }
    if (head <= this.seen) return false;
    this.seen = head;
    this.externalAppends();
    return true;
  }

  /** Appends this store did not make: the subscriptions read the log itself, head first. */
  private externalAppends(): void {
    this.tailKnownTo = null;
    this.knownHead = null;
    this.externalFinds += 1;
    this.appended.emit('external');
  }

  /** Whether the store rests on the watch of its file (nothing written for a while): for tests. */
  get resting(): boolean {
    return this.otherWriters.resting;
  }

  /**
   * Hears of every group of appends this store committed, with the rows as stored (to tell
   * another thread, say). Rows are collected only while someone listens.
   */
  onCommitted(listener: (rows: readonly EventRow[]) => void): void {
    this.appended.on('committed', listener);
  }

  /** The position of the newest event in the log, 0n when empty. */
  private head(): bigint {
    const row = this.statements.head.get() as { head: bigint | null };
    return row.head === null ? 0n : BigInt(row.head);
  }

  private knownHead: bigint | null = null;

  /**
   * How far the recent appends are known to be the log's whole tail without asking it: up to
   * this store's own last commit, or the last row another thread of this process told of. A
   * subscription woken by such an append pages from memory on that word; one woken by its poll
   * always asks the log, which is how a third writer's appends are found (as before, within a
   * poll, or at once when the next notice does not follow on).
   */
  private tailKnownTo: bigint | null = null;

  /**
   * The head as read once this turn of the event loop: a dozen subscriptions woken by one append
   * ask for it together. An append by another writer after the read is found by the next read (its
   * notice or the poll), exactly as one that came just after a fresh read would be.
   */
  private recentHead(): bigint {
    if (this.knownHead === null) this.rememberHead(this.head());
    return this.knownHead as bigint;
  }

  private rememberHead(head: bigint): void {
    if (this.knownHead === null) setImmediate(() => (this.knownHead = null));
    this.knownHead = head;
  }

  private readonly statementCache = new Map<string, Database.Statement>();

  /** Filtered reads build their SQL from the filter; each distinct text is prepared once. */
  private prepared(sql: string): Database.Statement {
    let statement = this.statementCache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statementCache.set(sql, statement);
    }
    return statement;
  }

  subscribe(options: SubscribeOptions): Subscription {
    let position = options.after ?? 0n;
    let stopped = false;
    let wake: ((external: boolean) => void) | null = null;
    /** Appends made in this process while the subscription was busy with a page (null while it waits). */
    let seenWhileBusy: AppendNotice[] | null = null;
    const limit = options.limit ?? 500;
    const wanted = (notice: AppendNotice) => {
      for (const type of notice.types) if (matchesFilter(options.filter, notice.streamId, type)) return true;
      return false;
    };
    // While the subscription waits, an append made here that it does not care about and that
    // follows on directly from what it has looked at only moves it along: no query, no wake-up.
    // Every other append (one it wants, or after a gap left by another process) wakes it to
    // read the log as before. Without this, every append woke every projection for a query.
    const onAppend = (notice: AppendNotice) => {
      if (!wake) {
        seenWhileBusy?.push(notice);
        return;
      }
      if (!wanted(notice) && notice.first === position + 1n) {
        position = notice.last;
        options.onCaughtUp?.(position);
        return;
      }
      wake(false);
    };
    /**
     * After a short page (the log was read to its head), whether the appends made here since
     * are all ones it does not want and follow on directly; if so it has seen everything and
     * can wait without reading the log once more just to find nothing.
     */
    const caughtUpSince = (notices: readonly AppendNotice[]) => {
      for (const notice of notices) {
        if (notice.last <= position) continue;
        if (notice.first !== position + 1n || wanted(notice)) return false;
        position = notice.last;
      }
      return true;
    };
    const onExternal = () => wake?.(true);
    this.appended.on('append', onAppend);
    this.appended.on('external', onExternal);

    /** Whether the next read follows other writers' appends (or the start), rather than a wake-up by this process's. */
    let polled = true;
    // No timer of its own: this process's appends wake it (onAppend), and other writers' are found
    // for every subscription at once by the store (OtherWriters), which says so with 'external'.
    const sleep = () =>
      new Promise<void>((resolve) => {
        wake = (external: boolean) => {
          wake = null;
          polled = external;
          // Read once the appends of this turn of the event loop are in: one page for many.
          setImmediate(resolve);
        };
      });

    /** Who reads behind the recent appends, to the log's blocks (see LogBlocks). */
    const reader = {};
    const loop = (async () => {
      // Never call back from inside subscribe(): the caller must hold the subscription first,
      // so a handler can stop it, and no callback fires before subscribe() has returned.
      await Promise.resolve();
      while (!stopped) {
        try {
          const notices: AppendNotice[] = [];
          seenWhileBusy = notices;
          const finds = this.externalFinds;
          const behind = this.behindPage(reader, position, limit, options.filter);
          if (behind && 'wait' in behind) {
            await behind.wait;
            continue;
          }
          const page =
            behind ??
            this.recentPage(position, limit, options.filter, polled) ??
            this.readAllNow({ after: position, limit, filter: options.filter });
          polled = true;
          if (page.events.length > 0) await options.onEvents(page.events);
          position = page.scannedTo;
          // Other writers' appends found while it read: read again before waiting. A page from
          // the blocks behind the recent appends ends at a block, not at the log's head.
          if (this.externalFinds !== finds || behind) continue;
          if (page.events.length < limit && !stopped && caughtUpSince(notices)) {
            seenWhileBusy = null;
            options.onCaughtUp?.(position);
            await sleep();
          }
        } catch (error) {
          options.onError?.(error);
          if (!options.onError) console.error('subscription stopped', error);
          stopped = true;
        }
      }
    })();

    const subscription: Subscription = {
      stop: async () => {
        stopped = true;
        wake?.(true);
        this.appended.off('append', onAppend);
        this.appended.off('external', onExternal);
        this.subscriptions.delete(subscription);
        this.blocks.leave(reader);
        if (this.subscriptions.size === 0) this.otherWriters.stop();
        await loop;
      },
    };
    this.subscriptions.add(subscription);
    this.otherWriters.start();
    return subscription;
  }

  async headPosition(): Promise<bigint> {
    return guarded('head', () => this.head());
  }

  async ping(): Promise<void> {
    guarded('ping', () => this.db.prepare('SELECT 1').get());
  }

  async close(): Promise<void> {
    this.appends.flush(); // write what was asked before closing
    this.otherWriters.stop();
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    if (this.db.open) this.db.close();
  }
}

/** One notice per run of rows of one stream, as the appends that wrote them would have given. */
function noticesOf(rows: readonly EventRow[]): AppendNotice[] {
  const notices: { streamId: string; types: string[]; first: bigint; last: bigint }[] = [];
  for (const row of rows) {
    const position = BigInt(row.position);
    const current = notices.at(-1);
    if (current && current.streamId === row.stream_id && current.last + 1n === position) {
      current.types.push(row.type);
      current.last = position;
    } else notices.push({ streamId: row.stream_id, types: [row.type], first: position, last: position });
  }
  return notices;
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    type: row.type,
    data: JSON.parse(row.data),
    metadata: row.metadata ? JSON.parse(row.metadata) : {},
    recordedAt: new Date(row.recorded_at),
  };
}

/**
 * How far a page looked: a full page, or any unfiltered one, up to its last event; a filtered
 * page with fewer matches than asked for looked at everything up to the head.
 */
function scannedTo(
  events: readonly RecordedEvent[],
  after: bigint,
  limit: number,
  filter: EventFilter | undefined,
  head: () => bigint,
): bigint {
  if (events.length === limit || !filter) {
    return events.length ? events[events.length - 1].position : after;
  }
  const reached = head();
  return reached > after ? reached : after;
}

/**
 * The latest events this process committed, in a fixed ring, when they are every event of the
 * log from `first` to `last`. Another process' append takes positions this process never sees,
 * so an event that does not follow on from `last` starts the window afresh. (A position is the
 * largest one plus one, and a rolled-back savepoint gives its positions back, so this process' own
 * commits follow on unless someone else wrote in between.)
 */
class RecentAppends {
  /**
   * The rows as stored, parsed only when a subscription wants one (and then once, for all):
   * behind a campaign the subscriptions read the log's blocks, far behind the window, and its
   * events were parsed for nobody (a tenth of the worker's parsing, and the garbage of it).
   */
  private readonly rows: (EventRow | undefined)[];
  private readonly parsed: (RecordedEvent | undefined)[];
  /** Slot of the oldest event. */
  private oldest = 0;
  private size = 0;
  private firstPosition = 0n;
  private lastPosition = 0n;

  constructor(private readonly capacity: number) {
    this.rows = new Array<EventRow | undefined>(capacity);
    this.parsed = new Array<RecordedEvent | undefined>(capacity);
  }

  /** The newest position held, null when empty. */
  get last(): bigint | null {
    return this.size === 0 ? null : this.lastPosition;
  }

  /** Whether every event from `position` to `last` is held. */
  covers(position: bigint): boolean {
    return this.size > 0 && this.firstPosition <= position;
  }

  add(row: EventRow): void {
    const position = BigInt(row.position);
    if (this.size > 0 && position !== this.lastPosition + 1n) this.clear();
    if (this.size === 0) this.firstPosition = position;
    let slot: number;
    if (this.size === this.capacity) {
      slot = this.oldest; // the oldest gives way
      this.oldest = (this.oldest + 1) % this.capacity;
      this.firstPosition += 1n;
    } else {
      slot = (this.oldest + this.size) % this.capacity;
      this.size += 1;
    }
    this.rows[slot] = row;
    this.parsed[slot] = undefined;
    this.lastPosition = position;
  }

  /** Forgets the events; the slots are overwritten later, so memory stays within the capacity. */
  clear(): void {
    this.oldest = 0;
    this.size = 0;
  }

  /** Up to `limit` matching events after `after`, which must be covered (`covers(after + 1n)`). */
  page(after: bigint, limit: number, filter: EventFilter | undefined): RecordedEvent[] {
    const events: RecordedEvent[] = [];
    const from = after < this.firstPosition ? 0 : Number(after - this.firstPosition) + 1;
    for (let i = from; i < this.size && events.length < limit; i++) {
      const slot = (this.oldest + i) % this.capacity;
      const row = this.rows[slot] as EventRow;
      if (!matchesFilter(filter, row.stream_id, row.type)) continue;
      let event = this.parsed[slot];
      if (event === undefined) this.parsed[slot] = event = toRecorded(row);
      events.push(event);
    }
    return events;
  }
}

/**
 * One page of the log in position order. A filter with several stream prefixes reads each
 * prefix's own first page (an index range each) and merges them: a single query with OR across
 * prefixes made SQLite collect and sort every matching event after the position for each page,
 * so catching up on a long log took quadratic time.
 */
function pageQuery(
  filter: EventFilter | undefined,
  after: bigint,
  limit: number,
): { sql: string; params: unknown[] } {
  const prefixes = filter?.streamPrefixes;
  if (!filter || !prefixes || prefixes.length < 2) {
    const { where, params } = filterClause(filter);
    return {
      sql: `SELECT ${COLUMNS} FROM events WHERE position > ?${where} ORDER BY position ASC LIMIT ?`,
      params: [after, ...params, limit],
    };
  }
  const branches = prefixes.map((prefix) =>
    filterClause({ eventTypes: filter.eventTypes, streamPrefixes: [prefix] }),
  );
  const union = branches
    .map(
      (b) =>
        `SELECT * FROM (SELECT ${COLUMNS} FROM events WHERE position > ?${b.where} ORDER BY position ASC LIMIT ?)`,
    )
    .join(' UNION ');
  return {
    sql: `SELECT ${COLUMNS} FROM (${union}) ORDER BY position ASC LIMIT ?`,
    params: [...branches.flatMap((b) => [after, ...b.params, limit]), limit],
  };
}

function filterClause(filter: EventFilter | undefined): { where: string; params: unknown[] } {
  if (!filter) return { where: '', params: [] };
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.eventTypes) {
    parts.push(`type IN (${filter.eventTypes.map(() => '?').join(', ') || 'NULL'})`);
    params.push(...filter.eventTypes);
  }
  if (filter.streamPrefixes) {
    const alternatives = filter.streamPrefixes.map((prefix) => {
      // `wallet-` is exactly the category `wallet`, which has an index, less a stream named
      // just `wallet` (no dash: its category is its whole name, yet it lacks the prefix).
      // Anything else is compared as text, counting characters the way SQLite does.
      if (prefix.endsWith('-') && !prefix.slice(0, -1).includes('-')) {
        params.push(prefix.slice(0, -1), prefix.slice(0, -1));
        return '(category = ? AND stream_id <> ?)';
      }
      params.push(prefix, prefix);
      return 'substr(stream_id, 1, length(?)) = ?';
    });
    parts.push(`(${alternatives.join(' OR ') || 'NULL'})`);
  }
  return { where: parts.map((p) => ` AND ${p}`).join(''), params };
}
