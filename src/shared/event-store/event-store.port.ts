/**
 * The event store port: the record of everything that happened. Streams hold one aggregate
 * each; the global log orders every event by `position`. Revisions and positions are bigints
 * so no adapter ever loses precision.
 */
export const EVENT_STORE = Symbol('EVENT_STORE');

/** What the appender believes about the stream before the append. */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | bigint;

export interface NewEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata?: Record<string, unknown>;
}

/**
 * An event as the log holds it. Readers must treat it as read-only, nested data and
 * `recordedAt` included: an adapter may hand the same object to several subscribers.
 */
export interface RecordedEvent<Data = unknown> {
  readonly streamId: string;
  /** 0-based index of the event within its stream. */
  readonly revision: bigint;
  /** Position in the global log, strictly increasing in commit order. */
  readonly position: bigint;
  readonly type: string;
  readonly data: Data;
  readonly metadata: Record<string, unknown>;
  readonly recordedAt: Date;
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event written: the expected revision for the next append. */
  readonly nextExpectedRevision: bigint;
  /** Global position of the last event written. */
  readonly position: bigint;
}

export interface ReadStreamOptions {
  /** Revision to start at (inclusive). Defaults to the start, or the end when backwards. */
  readonly fromRevision?: bigint;
  readonly direction?: 'forwards' | 'backwards';
  readonly limit?: number;
}

export interface EventFilter {
  readonly eventTypes?: readonly string[];
  readonly streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. `null` or absent reads from the start. */
  readonly after?: bigint | null;
  readonly limit?: number;
  readonly filter?: EventFilter;
}

export interface SubscribeOptions extends ReadAllOptions {
  /** Called with each batch in log order; the next batch waits for the promise. */
  readonly onEvents: (events: readonly RecordedEvent[]) => Promise<void> | void;
  /** Called when the subscription has looked at the whole log up to `position` and waits for more. */
  readonly onCaughtUp?: (position: bigint) => void;
  /** A handler that throws stops the subscription and reports here. */
  readonly onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Resolves once the handler is no longer running and will not be called again. */
  stop(): Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams, each at its expected revision, answering one result per append.
   * Where `atomicMultiStreamAppends` holds (SQLite) they are written all or none, in one
   * transaction. Elsewhere (EventStoreDB has no multi-stream transactions) they are written in
   * order and the first refusal stops the rest: a caller must then tolerate an earlier append
   * having been written alone, exactly as after a crash between two appends.
   */
  appendAll(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** True when appendAll writes all of its appends or none. */
  readonly atomicMultiStreamAppends: boolean;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catches up from `after`, then follows live appends, including other processes' appends. */
  subscribe(options: SubscribeOptions): Subscription;
  /** The position of the newest event in the log, 0n when empty. */
  headPosition(): Promise<bigint>;
  /** Throws when the store cannot be reached (for /ready). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The one error every adapter raises when an expected revision does not hold. */
export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId} expected revision ${String(expected)} but was ${String(actual)}`);
    this.name = 'ConcurrencyError';
  }
}

/** The store cannot be reached or cannot write (disk full, server down): answered as 503. */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

export function matchesFilter(filter: EventFilter | undefined, streamId: string, type: string): boolean {
  if (!filter) return true;
  if (filter.eventTypes && !filter.eventTypes.includes(type)) return false;
  return !filter.streamPrefixes || hasPrefix(streamId, filter.streamPrefixes);
}

/**
 * A plain loop: every subscription asks this of every event and every append notice, and a
 * closure for `some` was an allocation each time (a twentieth of the worker's behind a campaign).
 */
function hasPrefix(streamId: string, prefixes: readonly string[]): boolean {
  for (let i = 0; i < prefixes.length; i++) if (streamId.startsWith(prefixes[i])) return true;
  return false;
}

/** Checks an expected revision against the stream's current one (`-1n` when absent). */
export function expectationHolds(expected: ExpectedRevision, current: bigint): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === -1n;
  if (expected === 'stream_exists') return current >= 0n;
  return current === expected;
}
