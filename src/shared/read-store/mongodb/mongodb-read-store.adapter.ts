import { MongoClient } from 'mongodb';
import type { ClientSession, Collection, Db } from 'mongodb';
import { StoreUnavailableError } from '../../event-store/event-store.port';
import type { DocumentWrite, ListQuery, ReadStore } from '../read-store.port';
import {
  CHECKPOINTS,
  DOCUMENTS,
  INDEXES,
  StoredCheckpoint,
  StoredDocument,
  checkpointAdvance,
  commitDecision,
  databaseName,
  fromStoredDocument,
  fromStoredPosition,
  getFilter,
  listQuery,
  mapMongoError,
  toBulkOperations,
  toStoredPosition,
} from './mongodb-mapping';

/**
 * MongoDB behind the read store port (layout in mongodb-mapping.ts). A commit is one
 * multi-document transaction, so MongoDB must run as a replica set (one node is enough).
 * This file is the thin I/O part; the contract suite runs it when MONGODB_URL is set.
 */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly documents: Collection<StoredDocument>;
  private readonly checkpoints: Collection<StoredCheckpoint>;
  private indexes: Promise<void> | null = null;

  /** `namespace` (STORE_NAMESPACE) picks the database `<url's database>_<namespace>`. */
  constructor(url: string, { namespace = '' }: { namespace?: string } = {}) {
    // Fail fast when the server is away (the driver's default waits 30 s), unless the URL says.
    const options = /[?&]serverSelectionTimeoutMS=/i.test(url) ? {} : { serverSelectionTimeoutMS: 5000 };
    this.client = new MongoClient(url, options);
    this.db = this.client.db(databaseName(url, namespace));
    this.documents = this.db.collection<StoredDocument>(DOCUMENTS);
    this.checkpoints = this.db.collection<StoredCheckpoint>(CHECKPOINTS);
  }

  /** Creates the indexes once per process, before the first read or write. */
  private ready(): Promise<void> {
    if (!this.indexes) {
      this.indexes = this.documents
        .createIndexes(INDEXES.map((index) => ({ ...index })))
        .then(() => undefined)
        .catch((error: unknown) => {
          this.indexes = null;
          throw error;
        });
    }
    return this.indexes;
  }

  /**
   * Connects explicitly: when the driver's implicit first connect fails (server down at
   * start), it keeps the closed topology and every later call fails with "Topology is closed".
   * connect() builds a new topology when the current one is not connected and is a cheap
   * check when it is; once connected, the driver itself follows the server going and coming.
   */
  private async connected(): Promise<void> {
    await this.client.connect();
  }

  private async guarded<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      await this.connected();
      await this.ready();
      return await run();
    } catch (error) {
      throw mapMongoError(error, what);
    }
  }

  private async inTransaction(what: string, run: (session: ClientSession) => Promise<void>): Promise<void> {
    await this.guarded(what, async () => {
      const session = this.client.startSession();
      try {
        // withTransaction retries the whole function on transient errors (write conflicts
        // between instances, elections) and commits with majority write concern.
        await session.withTransaction(() => run(session), {
          readConcern: { level: 'snapshot' },
          writeConcern: { w: 'majority' },
        });
      } finally {
        await session.endSession();
      }
    });
  }

  async get<T>(collection: string, id: string): Promise<T | null> {
    return this.guarded('get', async () =>
      fromStoredDocument<T>(
        await this.documents.findOne(getFilter(collection, id), { projection: { doc: 1 } }),
      ),
    );
  }

  async list<T>(collection: string, query: ListQuery): Promise<T[]> {
    if (query.limit <= 0) return []; // a Mongo limit of 0 means "no limit"
    return this.guarded('list', async () => {
      const { filter, sort, limit } = listQuery(collection, query);
      const rows = await this.documents
        .find(filter, { projection: { doc: 1 } })
        .sort(sort)
        .limit(limit)
        .toArray();
      return rows.map((row) => fromStoredDocument<T>(row) as T);
    });
  }

  async count(collection: string, partition: string): Promise<number> {
    return this.guarded('count', () => this.documents.countDocuments({ collection, partition }));
  }

  async checkpoint(projection: string): Promise<bigint | null> {
    return this.guarded('checkpoint', async () => {
      const row = await this.checkpoints.findOne({ _id: projection }, { promoteLongs: false });
      return row ? fromStoredPosition(row.position) : null;
    });
  }

  /**
   * Moves the checkpoint and writes the documents in one transaction. With `previous` the
   * checkpoint moves only from exactly that value (a compare-and-set: a second instance running
   * the same projection that committed first makes this batch write nothing and answer false).
   * Without it the update only matches a checkpoint behind this one: a batch replayed after a
   * crash finds its checkpoint already stored and writes nothing.
   */
  async commit(
    projection: string,
    writes: readonly DocumentWrite[],
    checkpoint: bigint,
    previous?: bigint | null,
  ): Promise<boolean> {
    const operations = toBulkOperations(writes);
    let applied = false;
    await this.inTransaction('commit', async (session) => {
      applied = false;
      if (previous !== undefined) {
        if (previous === null) {
          const existing = await this.checkpoints.findOne(
            { _id: projection },
            { session, promoteLongs: false },
          );
          if (existing) return;
          await this.checkpoints.insertOne(
            { _id: projection, position: toStoredPosition(checkpoint) },
            { session },
          );
        } else {
          const moved = await this.checkpoints.updateOne(
            { _id: projection, position: toStoredPosition(previous) },
            { $set: { position: toStoredPosition(checkpoint) } },
            { session },
          );
          if (moved.matchedCount === 0) return;
        }
      } else {
        const { filter, update } = checkpointAdvance(projection, checkpoint);
        const moved = await this.checkpoints.updateOne(filter, update, { session });
        const existing =
          moved.matchedCount > 0
            ? null
            : await this.checkpoints.findOne({ _id: projection }, { session, promoteLongs: false });
        const decision = commitDecision(moved.matchedCount, existing);
        if (decision === 'skip') return;
        if (decision === 'insert') {
          await this.checkpoints.insertOne(
            { _id: projection, position: toStoredPosition(checkpoint) },
            { session },
          );
        }
      }
      if (operations.length > 0) await this.documents.bulkWrite(operations, { session, ordered: true });
      applied = true;
    });
    return applied;
  }

  async reset(projection: string, collections: readonly string[]): Promise<void> {
    await this.inTransaction('reset', async (session) => {
      if (collections.length > 0)
        await this.documents.deleteMany({ collection: { $in: [...collections] } }, { session });
      await this.checkpoints.deleteOne({ _id: projection }, { session });
    });
  }

  async ping(): Promise<void> {
    try {
      await this.connected();
      await this.client.db('admin').command({ ping: 1 });
    } catch (error) {
      const mapped = mapMongoError(error, 'ping');
      throw mapped instanceof StoreUnavailableError
        ? mapped
        : new StoreUnavailableError('ping: MongoDB failed', error);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
