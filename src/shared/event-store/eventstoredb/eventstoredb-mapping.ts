/**
 * Pure mapping between the event store port and @eventstore/db-client 6.x. Everything here is
 * unit-tested without a server (eventstoredb-mapping.spec.ts); the adapter only does I/O.
 *
 * Positions: the port's `position` is the event's **commit position** in the transaction log
 * (a byte offset, so strictly increasing but not contiguous). Events appended through gRPC are
 * never part of an explicit (TCP-era) transaction, so each has commit === prepare and no two
 * events share a commit position. Going back, a port position `p` becomes `{commit: p,
 * prepare: p}`; `0n` ("before everything") becomes START. Reads check `position > after`
 * themselves, so it does not matter whether the server treats a start position as inclusive
 * (reads) or exclusive (subscriptions).
 */
import { randomUUID } from 'node:crypto';
import {
  ANY,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
} from '@eventstore/db-client';
import type {
  AppendExpectedRevision,
  Filter,
  JSONEventData,
  Position,
  ReadPosition,
} from '@eventstore/db-client';
import {
  ConcurrencyError,
  EventFilter,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StoreUnavailableError,
  matchesFilter,
} from '../event-store.port';
import { StreamNamespace } from './stream-namespace';

// ---------------------------------------------------------------------------------------------
// Expected revisions
// ---------------------------------------------------------------------------------------------

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'any':
      return ANY;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (typeof expected !== 'bigint' || expected < 0n)
        throw new Error(`Invalid expected revision ${String(expected)}`);
      return expected;
  }
}

// ---------------------------------------------------------------------------------------------
// Positions
// ---------------------------------------------------------------------------------------------

/** The port position of a log position: its commit position. */
export function fromEsdbPosition(position: Position): bigint {
  return BigInt(position.commit);
}

/** Where to start reading/subscribing for "events strictly after `after`". */
export function toEsdbReadPosition(after: bigint | null | undefined): ReadPosition {
  if (after === null || after === undefined || after <= 0n) return START;
  return { commit: after, prepare: after };
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** A new event as the client's JSON event data (content type application/json). */
export function toEventData(event: NewEvent, id: () => string = randomUUID): JSONEventData {
  // JSON.stringify drops `undefined`; the stored event must be what a reader gets back.
  const data = event.data === undefined ? null : (JSON.parse(JSON.stringify(event.data)) as unknown);
  return {
    id: id(),
    contentType: 'application/json',
    type: event.type,
    data: data as JSONEventData['data'],
    metadata: (event.metadata
      ? JSON.parse(JSON.stringify(event.metadata))
      : undefined) as JSONEventData['metadata'],
  };
}

/** The shape of the client's recorded event that this adapter relies on. */
export interface EsdbRecordedEventLike {
  readonly streamId: string;
  readonly revision: bigint;
  readonly type: string;
  readonly data: unknown;
  readonly metadata?: unknown;
  readonly isJson?: boolean;
  readonly created: Date | number | string;
  readonly position?: Position;
}

export interface EsdbResolvedEventLike {
  readonly event?: EsdbRecordedEventLike;
  readonly link?: unknown;
  readonly commitPosition?: bigint;
}

const decoder = new TextDecoder();

function decodeJson(value: unknown, fallback: unknown): unknown {
  if (value === undefined || value === null) return fallback;
  if (value instanceof Uint8Array) {
    if (value.length === 0) return fallback;
    const text = decoder.decode(value);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return value;
}

/**
 * A recorded event in port shape, its stream named as in `namespace`. `fallbackPosition` covers
 * stream reads on servers older than 22.6, which do not return positions for stream reads (then
 * the event's `position` is -1n).
 */
export function toRecordedEvent(
  event: EsdbRecordedEventLike,
  fallbackPosition?: bigint,
  namespace: StreamNamespace = StreamNamespace.NONE,
): RecordedEvent {
  const position = event.position ? fromEsdbPosition(event.position) : (fallbackPosition ?? -1n);
  const metadata = decodeJson(event.metadata, {});
  return {
    streamId: namespace.local(event.streamId) ?? event.streamId,
    revision: BigInt(event.revision),
    position,
    type: event.type,
    data: decodeJson(event.data, null),
    metadata:
      metadata && typeof metadata === 'object' && !Array.isArray(metadata)
        ? (metadata as Record<string, unknown>)
        : {},
    recordedAt: event.created instanceof Date ? event.created : new Date(event.created),
  };
}

/** The port position of a resolved $all event (commit position of the record). */
export function positionOfResolved(resolved: EsdbResolvedEventLike): bigint | null {
  if (resolved.event?.position) return fromEsdbPosition(resolved.event.position);
  if (resolved.commitPosition !== undefined) return BigInt(resolved.commitPosition);
  return null;
}

/** System streams and system event types start with `$`: never part of this service's log. */
export function isSystemEvent(streamId: string, type: string): boolean {
  return streamId.startsWith('$') || type.startsWith('$');
}

/**
 * The port name of a $all event's stream: null for links, system events and events of other
 * namespaces, which are never part of this store's log.
 */
export function ownStreamOf(resolved: EsdbResolvedEventLike, namespace: StreamNamespace): string | null {
  const event = resolved.event;
  if (!event || resolved.link) return null;
  const streamId = namespace.local(event.streamId);
  return streamId === null || isSystemEvent(streamId, event.type) ? null : streamId;
}

/**
 * The port view of one $all event: null when it is not this namespace's (ownStreamOf), or does
 * not match the filter (the server-side filter covers only one of event types / stream prefixes).
 */
export function acceptResolved(
  resolved: EsdbResolvedEventLike,
  filter: EventFilter | undefined,
  namespace: StreamNamespace = StreamNamespace.NONE,
): RecordedEvent | null {
  const event = resolved.event;
  const streamId = ownStreamOf(resolved, namespace);
  if (!event || streamId === null || !matchesFilter(filter, streamId, event.type)) return null;
  const position = positionOfResolved(resolved);
  return toRecordedEvent(event, position ?? undefined, namespace);
}

// ---------------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------------

/** Escapes a literal for a .NET regular expression (the server evaluates the filter). */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** A regex that matches nothing (an empty list of types or prefixes). */
export const MATCH_NOTHING = '(?!)';

/**
 * The server-side filter for a port filter. EventStoreDB filters on one thing: event types
 * when given (exact names, as an anchored regex: prefixes would also match longer names), else
 * stream prefixes, else "no system events". In a namespace it is always the stream prefixes,
 * in stored names (the namespace's own prefix when the port filter has none): the server then
 * sends none of the other namespaces' events. `acceptResolved` applies the whole port filter
 * again on the client, so a filter with both parts, or a prefix starting with `$`, is exact.
 * `checkpointInterval` 1 asks for a checkpoint every search window, which lets a subscription
 * know how far it has looked even when nothing matches.
 */
export function toEsdbFilter(
  filter: EventFilter | undefined,
  namespace: StreamNamespace = StreamNamespace.NONE,
): Filter {
  const base = { checkpointInterval: 1 };
  if (namespace.prefix) {
    const prefixes = (filter?.streamPrefixes ?? ['']).filter((p) => !p.startsWith('$'));
    if (prefixes.length === 0) return streamNameFilter({ ...base, regex: MATCH_NOTHING });
    const stored = prefixes.includes('') ? [namespace.prefix] : prefixes.map((p) => namespace.stored(p));
    return streamNameFilter({ ...base, prefixes: stored });
  }
  if (filter?.eventTypes) {
    const names = filter.eventTypes.filter((t) => !t.startsWith('$'));
    const regex = names.length === 0 ? MATCH_NOTHING : `^(?:${names.map(escapeRegex).join('|')})$`;
    return eventTypeFilter({ ...base, regex });
  }
  if (filter?.streamPrefixes) {
    const prefixes = filter.streamPrefixes.filter((p) => !p.startsWith('$'));
    // An empty prefix matches every stream, system ones too: use the type filter instead.
    if (prefixes.includes('')) return excludeSystemEvents(base);
    if (prefixes.length === 0) return streamNameFilter({ ...base, regex: MATCH_NOTHING });
    return streamNameFilter({ ...base, prefixes });
  }
  return excludeSystemEvents(base);
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** gRPC status codes that mean the server could not be reached or did not answer in time. */
const UNAVAILABLE_GRPC_CODES = new Set([
  1, // CANCELLED (by the transport, not us)
  4, // DEADLINE_EXCEEDED
  8, // RESOURCE_EXHAUSTED
  14, // UNAVAILABLE
]);

const UNAVAILABLE_TYPES = new Set(['unavailable', 'deadline-exceeded', 'timeout', 'not-leader', 'cancelled']);

const UNAVAILABLE_MESSAGES = [
  /Failed to discover/i,
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|EPIPE/,
  /No connection established|Connection dropped|channel (has been )?closed|Client (is )?closed/i,
];

export function isUnavailableError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { type?: unknown; code?: unknown; message?: unknown };
  if (typeof e.type === 'string' && UNAVAILABLE_TYPES.has(e.type)) return true;
  if (typeof e.code === 'number' && UNAVAILABLE_GRPC_CODES.has(e.code)) return true;
  if (
    typeof e.code === 'string' &&
    /^E(CONNREFUSED|CONNRESET|NOTFOUND|HOSTUNREACH|TIMEDOUT|PIPE)$/.test(e.code)
  )
    return true;
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message as string));
}

export function isStreamNotFound(error: unknown): boolean {
  return (error as { type?: unknown } | null)?.type === 'stream-not-found';
}

/**
 * The port error for a client error: WrongExpectedVersionError → ConcurrencyError (with the
 * server's actual revision), connection trouble → StoreUnavailableError, anything else as is.
 */
export function mapEsdbError(
  error: unknown,
  context: { streamId?: string; expected?: ExpectedRevision; what: string },
): unknown {
  if (error instanceof ConcurrencyError || error instanceof StoreUnavailableError) return error;
  const e = error as { type?: unknown; actualVersion?: unknown; streamName?: unknown } | null;
  if (e?.type === 'wrong-expected-version') {
    const streamId = context.streamId ?? (typeof e.streamName === 'string' ? e.streamName : '?');
    return new ConcurrencyError(streamId, context.expected ?? 'any', toActualRevision(e.actualVersion));
  }
  if (isUnavailableError(error)) {
    return new StoreUnavailableError(
      `${context.what}: EventStoreDB unavailable (${(error as Error).message ?? String(error)})`,
      error,
    );
  }
  return error;
}

/** The client reports the stream's revision as a bigint, or `no_stream`. */
export function toActualRevision(actual: unknown): bigint | 'no_stream' {
  if (typeof actual === 'bigint') return actual < 0n ? 'no_stream' : actual;
  if (typeof actual === 'number' && Number.isInteger(actual))
    return actual < 0 ? 'no_stream' : BigInt(actual);
  if (typeof actual === 'string' && /^-?\d+$/.test(actual))
    return BigInt(actual) < 0n ? 'no_stream' : BigInt(actual);
  return 'no_stream';
}
