import { Long, MongoNetworkError, MongoServerError } from 'mongodb';
import { StoreUnavailableError } from '../../event-store/event-store.port';
import {
  DEFAULT_DATABASE,
  INDEXES,
  checkpointAdvance,
  commitDecision,
  databaseName,
  documentKey,
  fromStoredDocument,
  fromStoredPosition,
  getFilter,
  isUnavailableError,
  jsonValue,
  listQuery,
  mapMongoError,
  toBulkOperations,
  toStoredDocument,
  toStoredPosition,
} from './mongodb-mapping';

describe('MongoDB read store mapping', () => {
  describe('documents', () => {
    it('keys a document by collection and id, separated by NUL', () => {
      expect(documentKey('wallets', 'wal_1')).toBe('wallets\u0000wal_1');
      // No two (collection, id) pairs share a key, even when the parts contain the other's text.
      expect(documentKey('a', 'b\u0000c')).not.toBe(documentKey('a\u0000b', 'c'.slice(1)));
    });

    it('stores a put with its index', () => {
      expect(
        toStoredDocument({
          op: 'put',
          collection: 'account_keys',
          id: 'key_1',
          doc: { name: 'ci', at: new Date('2025-01-01T00:00:00Z'), gone: undefined },
          index: { partition: 'acct_1', sort: '2025-01-01|key_1' },
        }),
      ).toEqual({
        _id: 'account_keys\u0000key_1',
        collection: 'account_keys',
        id: 'key_1',
        partition: 'acct_1',
        sort: '2025-01-01|key_1',
        doc: { name: 'ci', at: '2025-01-01T00:00:00.000Z' },
      });
    });

    it('stores null partition and sort for documents fetched by id only', () => {
      const stored = toStoredDocument({ op: 'put', collection: 'wallets', id: 'w', doc: { sms: 1 } });
      expect(stored.partition).toBeNull();
      expect(stored.sort).toBeNull();
    });

    it('keeps documents as JSON would (like the SQLite adapter)', () => {
      expect(jsonValue(undefined)).toBeNull();
      expect(jsonValue([1, 'two', null])).toEqual([1, 'two', null]);
      expect(jsonValue('text')).toBe('text');
      expect(jsonValue({ n: 9007199254740991 })).toEqual({ n: 9007199254740991 });
    });

    it('turns writes into one ordered list of upserts and deletes', () => {
      const ops = toBulkOperations([
        { op: 'put', collection: 'wallets', id: 'w1', doc: { sms: 3 } },
        { op: 'delete', collection: 'wallets', id: 'w2' },
      ]);
      expect(ops).toEqual([
        {
          replaceOne: {
            filter: { _id: 'wallets\u0000w1' },
            replacement: {
              _id: 'wallets\u0000w1',
              collection: 'wallets',
              id: 'w1',
              partition: null,
              sort: null,
              doc: { sms: 3 },
            },
            upsert: true,
          },
        },
        { deleteOne: { filter: { _id: 'wallets\u0000w2' } } },
      ]);
      expect(toBulkOperations([])).toEqual([]);
    });

    it('finds one document by its key and returns only its doc', () => {
      expect(getFilter('wallets', 'w1')).toEqual({ _id: 'wallets\u0000w1' });
      expect(fromStoredDocument({ doc: { sms: 2 } })).toEqual({ sms: 2 });
      expect(fromStoredDocument(null)).toBeNull();
    });
  });

  describe('listing', () => {
    it('lists a partition ascending', () => {
      expect(listQuery('keys', { partition: 'a1', order: 'asc', limit: 20 })).toEqual({
        filter: { collection: 'keys', partition: 'a1' },
        sort: { sort: 1 },
        limit: 20,
      });
    });

    it('pages ascending after a sort key (exclusive)', () => {
      expect(
        listQuery('keys', { partition: 'a1', order: 'asc', limit: 5, afterSort: '2025|k' }).filter,
      ).toEqual({
        collection: 'keys',
        partition: 'a1',
        sort: { $gt: '2025|k' },
      });
    });

    it('pages descending before a sort key (exclusive)', () => {
      const query = listQuery('keys', { partition: 'a1', order: 'desc', limit: 5, afterSort: '2025|k' });
      expect(query.filter).toEqual({ collection: 'keys', partition: 'a1', sort: { $lt: '2025|k' } });
      expect(query.sort).toEqual({ sort: -1 });
    });

    it('treats an empty afterSort as a bound, not as absent', () => {
      expect(listQuery('keys', { partition: 'a1', order: 'asc', limit: 5, afterSort: '' }).filter).toEqual({
        collection: 'keys',
        partition: 'a1',
        sort: { $gt: '' },
      });
    });

    it('lists the keys starting with a prefix as one anchored range, paged by a cursor', () => {
      const upper = '+23324\u{10FFFF}';
      expect(listQuery('n', { partition: 'w', order: 'asc', limit: 5, sortPrefix: '+23324' }).filter).toEqual(
        {
          collection: 'n',
          partition: 'w',
          sort: { $gte: '+23324', $lt: upper, $regex: '^\\+23324' },
        },
      );
      expect(
        listQuery('n', { partition: 'w', order: 'asc', limit: 5, sortPrefix: 'a.b', afterSort: 'a.bc' })
          .filter.sort,
      ).toEqual({ $gt: 'a.bc', $gte: 'a.b', $lt: 'a.b\u{10FFFF}', $regex: '^a\\.b' });
      expect(
        listQuery('n', { partition: 'w', order: 'desc', limit: 5, sortPrefix: 'a', afterSort: 'ab' }).filter
          .sort,
      ).toEqual({ $lt: 'ab', $gte: 'a', $regex: '^a' });
    });

    it('has an index for every read', () => {
      expect(INDEXES).toEqual([
        { key: { collection: 1, id: 1 }, name: 'collection_id', unique: true },
        { key: { collection: 1, partition: 1, sort: 1 }, name: 'collection_partition_sort' },
      ]);
    });
  });

  describe('checkpoints', () => {
    it('stores positions as Int64 without losing precision', () => {
      const big = 9223372036854775807n;
      expect(toStoredPosition(big).toString()).toBe(big.toString());
      expect(fromStoredPosition(toStoredPosition(big))).toBe(big);
      expect(fromStoredPosition(42)).toBe(42n);
      expect(fromStoredPosition(42n)).toBe(42n);
      expect(fromStoredPosition(Long.fromString('123456789012345678'))).toBe(123456789012345678n);
      expect(() => toStoredPosition(-1n)).toThrow();
      expect(() => fromStoredPosition('x')).toThrow();
    });

    it('only moves a checkpoint forward', () => {
      const { filter, update } = checkpointAdvance('wallets', 10n);
      expect(filter._id).toBe('wallets');
      expect((filter.position.$lt as Long).toBigInt()).toBe(10n);
      expect((update.$set.position as Long).toBigInt()).toBe(10n);
    });

    it('applies, inserts or skips a commit', () => {
      expect(commitDecision(1, null)).toBe('apply');
      expect(commitDecision(0, null)).toBe('insert');
      // The stored checkpoint is at or past this one: a replayed batch, nothing to write.
      expect(commitDecision(0, { position: Long.fromNumber(10) })).toBe('skip');
    });
  });

  describe('configuration', () => {
    it('takes the database from the URL path', () => {
      expect(databaseName('mongodb://mongo:27017/sms_wallet?replicaSet=rs0')).toBe('sms_wallet');
      expect(databaseName('mongodb://u:p@h1:27017,h2:27017/other?replicaSet=rs0')).toBe('other');
      expect(databaseName('mongodb+srv://cluster.example.net/prod')).toBe('prod');
    });

    it('defaults the database when the URL names none', () => {
      expect(databaseName('mongodb://localhost:27017')).toBe(DEFAULT_DATABASE);
      expect(databaseName('mongodb://localhost:27017/?replicaSet=rs0')).toBe(DEFAULT_DATABASE);
    });

    it('gives each store namespace (STORE_NAMESPACE) its own database; none keeps the URL one', () => {
      const url = 'mongodb://localhost:27017/sms_wallet?directConnection=true';
      expect(databaseName(url, 't_0a1b2c3d')).toBe('sms_wallet_t_0a1b2c3d');
      expect(databaseName('mongodb://localhost:27017', 't_9')).toBe(`${DEFAULT_DATABASE}_t_9`);
      expect(databaseName(url, '')).toBe('sms_wallet');
      expect(databaseName(url, 't_a')).not.toBe(databaseName(url, 't_b'));
    });

    it('refuses a namespace MongoDB or EventStoreDB cannot carry, and a name MongoDB would refuse', () => {
      for (const bad of ['T_A', 'a.b', 'a/b', 'a b', 'a:b', 'a$b'])
        expect(() => databaseName('mongodb://h/sms_wallet', bad)).toThrow(/STORE_NAMESPACE/);
      // 64 bytes or more is refused by the server itself: say so before it does.
      expect(() => databaseName(`mongodb://h/${'d'.repeat(40)}`, 'n'.repeat(30))).toThrow(/too long/);
      expect(databaseName(`mongodb://h/${'d'.repeat(30)}`, 'n'.repeat(32))).toHaveLength(63);
    });
  });

  describe('errors', () => {
    const named = (name: string, extra: Record<string, unknown> = {}) =>
      Object.assign(new Error(name), { name, ...extra });

    it.each([
      ['server selection', named('MongoServerSelectionError')],
      ['a network error', new MongoNetworkError('connection reset')],
      ['a network timeout', named('MongoNetworkTimeoutError')],
      ['a closed client', named('MongoTopologyClosedError')],
      ['a primary stepping down', new MongoServerError({ message: 'stepped down', code: 189 })],
      ['no writable primary', new MongoServerError({ message: 'not primary', code: 10107 })],
      ['a shutdown', new MongoServerError({ message: 'shutting down', code: 91 })],
      [
        'a transient transaction error',
        named('MongoServerError', { errorLabels: ['TransientTransactionError'] }),
      ],
    ])('maps %s to StoreUnavailableError', (_what, error) => {
      expect(isUnavailableError(error)).toBe(true);
      const mapped = mapMongoError(error, 'commit');
      expect(mapped).toBeInstanceOf(StoreUnavailableError);
      expect((mapped as StoreUnavailableError).cause).toBe(error);
      expect((mapped as Error).message).toMatch(/^commit: MongoDB unavailable/);
    });

    it('passes other errors through', () => {
      const duplicate = new MongoServerError({ message: 'E11000 duplicate key', code: 11000 });
      expect(mapMongoError(duplicate, 'commit')).toBe(duplicate);
      const plain = new Error('bug');
      expect(mapMongoError(plain, 'get')).toBe(plain);
      expect(isUnavailableError(null)).toBe(false);
    });

    it('explains that transactions need a replica set', () => {
      const error = new MongoServerError({
        message: 'Transaction numbers are only allowed on a replica set member or mongos',
        code: 20,
      });
      const mapped = mapMongoError(error, 'commit') as Error;
      expect(mapped).not.toBeInstanceOf(StoreUnavailableError);
      expect(mapped.message).toMatch(/replica set/);
      expect(mapped.cause).toBe(error);
    });
  });
});
