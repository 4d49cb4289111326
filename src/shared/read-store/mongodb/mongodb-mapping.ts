/**
 * Pure mapping between the read store port and MongoDB: document shape, write operations,
 * queries, checkpoints and errors. Unit-tested without a server (mongodb-mapping.spec.ts).
 *
 * Layout: one Mongo collection `documents` holds every read-model document as
 *   { _id: collection + '\u0000' + id, collection, id, partition, sort, doc }
 * (`partition`/`sort` are null for documents that are only fetched by id), and one collection
 * `checkpoints` holds { _id: projection, position: Int64 }. One collection keeps a commit a
 * single bulk write and lets reset() clear any set of read-model collections in one statement.
 * `doc` is the document after a JSON round trip (what the SQLite adapter returns as well), so
 * Dates become ISO strings and `undefined` fields disappear in both stores.
 */
import type { AnyBulkWriteOperation, Document, Filter, Sort } from 'mongodb';
import { Long } from 'mongodb';
import { StoreUnavailableError } from '../../event-store/event-store.port';
import { checkStoreNamespace } from '../../store-namespace';
import { prefixUpperBound, type DocumentWrite, type ListQuery } from '../read-store.port';

export const DOCUMENTS = 'documents';
export const CHECKPOINTS = 'checkpoints';
export const DEFAULT_DATABASE = 'sms_wallet';

export interface StoredDocument {
  _id: string;
  collection: string;
  id: string;
  partition: string | null;
  sort: string | null;
  doc: unknown;
}

export interface StoredCheckpoint {
  _id: string;
  position: Long;
}

/** The key of a read-model document; NUL cannot appear in a collection name, so no clashes. */
export function documentKey(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}

/** A value as JSON would carry it (the port stores JSON documents). */
export function jsonValue(doc: unknown): unknown {
  const text = JSON.stringify(doc);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

export function toStoredDocument(write: Extract<DocumentWrite, { op: 'put' }>): StoredDocument {
  return {
    _id: documentKey(write.collection, write.id),
    collection: write.collection,
    id: write.id,
    partition: write.index?.partition ?? null,
    sort: write.index?.sort ?? null,
    doc: jsonValue(write.doc),
  };
}

/** The port's writes as one ordered bulk write: puts replace (upsert), deletes delete. */
export function toBulkOperations(writes: readonly DocumentWrite[]): AnyBulkWriteOperation<StoredDocument>[] {
  return writes.map((write) =>
    write.op === 'put'
      ? {
          replaceOne: {
            filter: { _id: documentKey(write.collection, write.id) },
            replacement: toStoredDocument(write),
            upsert: true,
          },
        }
      : { deleteOne: { filter: { _id: documentKey(write.collection, write.id) } } },
  );
}

export function getFilter(collection: string, id: string): Filter<StoredDocument> {
  return { _id: documentKey(collection, id) };
}

/** A page of one partition in sort order; `afterSort` is exclusive in the listing direction. */
export function listQuery(
  collection: string,
  query: ListQuery,
): { filter: Filter<StoredDocument>; sort: Sort; limit: number } {
  const filter: Filter<StoredDocument> = { collection, partition: query.partition };
  const bounds: Record<string, unknown> = {};
  if (query.afterSort !== undefined) bounds[query.order === 'asc' ? '$gt' : '$lt'] = query.afterSort;
  if (query.sortPrefix !== undefined) {
    // One index range, made exact by the anchored pattern (which alone MongoDB also bounds).
    bounds.$gte = query.sortPrefix;
    // Descending after a cursor, the cursor (a key of this range) is already the upper end.
    if (query.order === 'asc' || query.afterSort === undefined)
      bounds.$lt = prefixUpperBound(query.sortPrefix);
    bounds.$regex = `^${escapeRegExp(query.sortPrefix)}`;
  }
  if (Object.keys(bounds).length > 0) filter.sort = bounds;
  return { filter, sort: { sort: query.order === 'asc' ? 1 : -1 }, limit: query.limit };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The document a listed or fetched row carries. */
export function fromStoredDocument<T>(stored: Pick<StoredDocument, 'doc'> | null | undefined): T | null {
  return stored ? (stored.doc as T) : null;
}

export const INDEXES: readonly { key: Document; name: string; unique?: boolean }[] = [
  { key: { collection: 1, id: 1 }, name: 'collection_id', unique: true },
  { key: { collection: 1, partition: 1, sort: 1 }, name: 'collection_partition_sort' },
];

// ---------------------------------------------------------------------------------------------
// Checkpoints
// ---------------------------------------------------------------------------------------------

export function toStoredPosition(position: bigint): Long {
  if (position < 0n) throw new Error(`A checkpoint cannot be negative: ${position}`);
  return Long.fromBigInt(position);
}

/** Reads a stored position however the driver hands it back (Long, number or bigint). */
export function fromStoredPosition(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (Long.isLong(value)) return (value as Long).toBigInt();
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new Error(`Unreadable checkpoint position ${String(value)}`);
}

/**
 * The conditional checkpoint move: it matches only when the stored checkpoint is behind, so a
 * replayed batch (its checkpoint already stored) changes nothing and its writes are skipped.
 */
export function checkpointAdvance(
  projection: string,
  position: bigint,
): { filter: Document; update: Document } {
  return {
    filter: { _id: projection, position: { $lt: toStoredPosition(position) } },
    update: { $set: { position: toStoredPosition(position) } },
  };
}

/**
 * What a commit does after the conditional update: `apply` when it moved the checkpoint,
 * `insert` when the projection has none yet, `skip` when the stored one is at or past it.
 */
export function commitDecision(
  matched: number,
  existing: { position: unknown } | null,
): 'apply' | 'insert' | 'skip' {
  if (matched > 0) return 'apply';
  return existing ? 'skip' : 'insert';
}

// ---------------------------------------------------------------------------------------------
// Configuration and errors
// ---------------------------------------------------------------------------------------------

/**
 * The database named in the URL's path (`mongodb://h:27017/sms_wallet?…`), else sms_wallet;
 * with a store namespace (STORE_NAMESPACE) `<that>_<namespace>`, so each namespace has its own
 * documents and checkpoints on a shared server.
 */
export function databaseName(url: string, namespace = ''): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/.exec(url);
  const base = (match ? decodeURIComponent(match[1]) : '') || DEFAULT_DATABASE;
  if (!checkStoreNamespace(namespace)) return base;
  const name = `${base}_${namespace}`;
  // MongoDB refuses database names of 64 bytes or more.
  if (Buffer.byteLength(name) >= 64)
    throw new Error(`MongoDB database name "${name}" is too long: shorten the database or STORE_NAMESPACE`);
  return name;
}

const UNAVAILABLE_NAMES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoClientClosedError',
  'MongoServerClosedError',
  'MongoOperationTimeoutError',
  'MongoWriteConcernError',
  'MongoStalePrimaryError',
]);

/** Server codes for "not now": shutting down, elections, no primary, timeouts, host trouble. */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

const UNAVAILABLE_LABELS = [
  'TransientTransactionError',
  'RetryableWriteError',
  'UnknownTransactionCommitResult',
];

export function isUnavailableError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as {
    name?: unknown;
    code?: unknown;
    errorLabels?: unknown;
    hasErrorLabel?: (label: string) => boolean;
  };
  if (typeof e.name === 'string' && UNAVAILABLE_NAMES.has(e.name)) return true;
  if (typeof e.code === 'number' && UNAVAILABLE_CODES.has(e.code)) return true;
  const labels = Array.isArray(e.errorLabels) ? (e.errorLabels as string[]) : [];
  if (
    UNAVAILABLE_LABELS.some(
      (label) => labels.includes(label) || (typeof e.hasErrorLabel === 'function' && e.hasErrorLabel(label)),
    )
  ) {
    return true;
  }
  return false;
}

/** Transactions need a replica set: a standalone server answers with this. */
export function isTransactionsUnsupported(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === 20 ||
    (typeof e?.message === 'string' &&
      /Transaction numbers are only allowed on a replica set/i.test(e.message))
  );
}

export function mapMongoError(error: unknown, what: string): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (isUnavailableError(error)) {
    return new StoreUnavailableError(
      `${what}: MongoDB unavailable (${(error as Error).message ?? String(error)})`,
      error,
    );
  }
  if (isTransactionsUnsupported(error)) {
    return new Error(
      `${what}: MongoDB transactions need a replica set (a one-node one will do: mongod --replSet rs0, then rs.initiate())`,
      { cause: error },
    );
  }
  return error;
}
