import {
  ANY,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import type { PrefixesFilter, RegexFilter } from '@eventstore/db-client';
import { ConcurrencyError, StoreUnavailableError } from '../event-store.port';
import {
  MATCH_NOTHING,
  acceptResolved,
  escapeRegex,
  fromEsdbPosition,
  isStreamNotFound,
  isSystemEvent,
  mapEsdbError,
  positionOfResolved,
  toActualRevision,
  toEsdbExpectedRevision,
  toEsdbFilter,
  toEsdbReadPosition,
  toEventData,
  toRecordedEvent,
} from './eventstoredb-mapping';
import { StreamNamespace } from './stream-namespace';

const created = new Date('2025-01-02T03:04:05.678Z');
const recorded = (over: Record<string, unknown> = {}) => ({
  streamId: 'wallet-wal_1',
  revision: 3n,
  type: 'CreditsReserved',
  data: { sms: 5 },
  metadata: { correlationId: 'c1' },
  isJson: true,
  created,
  position: { commit: 1234n, prepare: 1234n },
  ...over,
});

describe('EventStoreDB mapping', () => {
  describe('expected revisions', () => {
    it.each([
      ['no_stream', NO_STREAM],
      ['any', ANY],
      ['stream_exists', STREAM_EXISTS],
    ] as const)('maps %s to the client constant', (port, esdb) => {
      expect(toEsdbExpectedRevision(port)).toBe(esdb);
    });

    it('passes a revision through as that exact bigint', () => {
      expect(toEsdbExpectedRevision(0n)).toBe(0n);
      expect(toEsdbExpectedRevision(41n)).toBe(41n);
      expect(toEsdbExpectedRevision(9007199254740993n)).toBe(9007199254740993n);
    });

    it('refuses a negative revision', () => {
      expect(() => toEsdbExpectedRevision(-1n)).toThrow(/Invalid expected revision/);
    });
  });

  describe('positions', () => {
    it('uses the commit position as the port position', () => {
      expect(fromEsdbPosition({ commit: 987654321987654321n, prepare: 987654321987654300n })).toBe(
        987654321987654321n,
      );
    });

    it('starts at the beginning for no position or 0n', () => {
      expect(toEsdbReadPosition(undefined)).toBe(START);
      expect(toEsdbReadPosition(null)).toBe(START);
      expect(toEsdbReadPosition(0n)).toBe(START);
    });

    it('turns a port position back into a commit/prepare pair', () => {
      expect(toEsdbReadPosition(4242n)).toEqual({ commit: 4242n, prepare: 4242n });
    });

    it('round-trips', () => {
      expect(fromEsdbPosition(toEsdbReadPosition(77n) as { commit: bigint; prepare: bigint })).toBe(77n);
    });

    it('takes a resolved event position from the event, else from the commit position', () => {
      expect(positionOfResolved({ event: recorded() })).toBe(1234n);
      expect(positionOfResolved({ event: recorded({ position: undefined }), commitPosition: 99n })).toBe(99n);
      expect(positionOfResolved({})).toBeNull();
    });
  });

  describe('events', () => {
    it('encodes a new event as JSON event data with a fresh id', () => {
      const data = toEventData(
        { type: 'CreditsGranted', data: { sms: 10, note: undefined }, metadata: { by: 'op' } },
        () => 'id-1',
      );
      expect(data).toEqual({
        id: 'id-1',
        contentType: 'application/json',
        type: 'CreditsGranted',
        data: { sms: 10 },
        metadata: { by: 'op' },
      });
      expect(Object.keys(data.data as object)).toEqual(['sms']);
    });

    it('encodes undefined data as null and no metadata as undefined', () => {
      const data = toEventData({ type: 'Pinged', data: undefined }, () => 'id-2');
      expect(data.data).toBeNull();
      expect(data.metadata).toBeUndefined();
    });

    it('gives every event its own uuid by default', () => {
      const a = toEventData({ type: 'A', data: {} });
      const b = toEventData({ type: 'A', data: {} });
      expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.id).not.toBe(b.id);
    });

    it('converts a recorded event', () => {
      expect(toRecordedEvent(recorded())).toEqual({
        streamId: 'wallet-wal_1',
        revision: 3n,
        position: 1234n,
        type: 'CreditsReserved',
        data: { sms: 5 },
        metadata: { correlationId: 'c1' },
        recordedAt: created,
      });
    });

    it('defaults metadata to {} and decodes binary JSON', () => {
      const bytes = new TextEncoder().encode('{"sms":7}');
      const event = toRecordedEvent(recorded({ data: bytes, isJson: false, metadata: undefined }));
      expect(event.data).toEqual({ sms: 7 });
      expect(event.metadata).toEqual({});
      expect(toRecordedEvent(recorded({ metadata: new Uint8Array() })).metadata).toEqual({});
      expect(toRecordedEvent(recorded({ metadata: ['not', 'a', 'map'] })).metadata).toEqual({});
    });

    it('keeps non-JSON bytes as text rather than failing', () => {
      const event = toRecordedEvent(recorded({ data: new TextEncoder().encode('plain'), isJson: false }));
      expect(event.data).toBe('plain');
    });

    it('uses the fallback position when the server sent none (stream reads before 22.6)', () => {
      expect(toRecordedEvent(recorded({ position: undefined }), 55n).position).toBe(55n);
      expect(toRecordedEvent(recorded({ position: undefined })).position).toBe(-1n);
    });

    it('takes recordedAt from created, also when given as a number', () => {
      expect(toRecordedEvent(recorded({ created: created.getTime() })).recordedAt).toEqual(created);
    });
  });

  describe('accepting $all events', () => {
    it('accepts a user event that matches the filter', () => {
      expect(acceptResolved({ event: recorded() }, { streamPrefixes: ['wallet-'] })?.position).toBe(1234n);
      expect(acceptResolved({ event: recorded() }, undefined)?.type).toBe('CreditsReserved');
    });

    it('drops system streams, system types and links', () => {
      expect(isSystemEvent('$stats-127.0.0.1:2113', 'StatsCollected')).toBe(true);
      expect(isSystemEvent('wallet-1', '$metadata')).toBe(true);
      expect(isSystemEvent('wallet-1', 'CreditsReserved')).toBe(false);
      expect(acceptResolved({ event: recorded({ streamId: '$settings' }) }, undefined)).toBeNull();
      expect(acceptResolved({ event: recorded({ type: '$>' }) }, undefined)).toBeNull();
      expect(acceptResolved({ event: recorded(), link: recorded({ type: '$>' }) }, undefined)).toBeNull();
      expect(acceptResolved({}, undefined)).toBeNull();
      // Even when the caller asks for `$` explicitly.
      expect(
        acceptResolved({ event: recorded({ streamId: '$ce-wallet' }) }, { streamPrefixes: ['$'] }),
      ).toBeNull();
    });

    it('applies both parts of the filter on the client', () => {
      const filter = { eventTypes: ['CreditsReserved'], streamPrefixes: ['account-'] };
      expect(acceptResolved({ event: recorded() }, filter)).toBeNull();
      expect(acceptResolved({ event: recorded({ streamId: 'account-1' }) }, filter)).not.toBeNull();
      expect(acceptResolved({ event: recorded() }, { eventTypes: [] })).toBeNull();
    });
  });

  describe('filters', () => {
    const regexOf = (f: unknown) => new RegExp((f as RegexFilter).regex);

    it('filters on exact event types with an anchored, escaped regex', () => {
      const filter = toEsdbFilter({ eventTypes: ['CreditsReserved', 'Odd.Type+1'] }) as RegexFilter;
      expect(filter.filterOn).toBe('eventType');
      expect(filter.regex).toBe('^(?:CreditsReserved|Odd\\.Type\\+1)$');
      const re = regexOf(filter);
      expect(re.test('CreditsReserved')).toBe(true);
      expect(re.test('CreditsReservedLater')).toBe(false);
      expect(re.test('Odd.Type+1')).toBe(true);
      expect(re.test('OddxType+1')).toBe(false);
      expect(re.test('$metadata')).toBe(false);
    });

    it('escapes every regex metacharacter', () => {
      const nasty = 'a\\b^c$d.e|f?g*h+i(j)k[l]m{n}o';
      expect(new RegExp(`^${escapeRegex(nasty)}$`).test(nasty)).toBe(true);
    });

    it('filters on stream prefixes with a prefix filter', () => {
      const filter = toEsdbFilter({ streamPrefixes: ['wallet-', 'account-'] }) as PrefixesFilter;
      expect(filter.filterOn).toBe('streamName');
      expect(filter.prefixes).toEqual(['wallet-', 'account-']);
    });

    it('prefers event types when both are given (streams are then checked on the client)', () => {
      const filter = toEsdbFilter({ eventTypes: ['A'], streamPrefixes: ['wallet-'] }) as RegexFilter;
      expect(filter.filterOn).toBe('eventType');
    });

    it('excludes system events when there is no filter', () => {
      for (const filter of [
        toEsdbFilter(undefined),
        toEsdbFilter({}),
        toEsdbFilter({ streamPrefixes: [''] }),
      ]) {
        expect(filter.filterOn).toBe('eventType');
        const re = regexOf(filter);
        expect(re.test('CreditsReserved')).toBe(true);
        expect(re.test('$statsCollected')).toBe(false);
      }
    });

    it('never asks the server for `$` types or prefixes', () => {
      const types = toEsdbFilter({ eventTypes: ['$metadata', 'A'] }) as RegexFilter;
      expect(types.regex).toBe('^(?:A)$');
      const prefixes = toEsdbFilter({ streamPrefixes: ['$ce-', 'wallet-'] }) as PrefixesFilter;
      expect(prefixes.prefixes).toEqual(['wallet-']);
    });

    it('matches nothing for empty lists', () => {
      expect((toEsdbFilter({ eventTypes: [] }) as RegexFilter).regex).toBe(MATCH_NOTHING);
      expect((toEsdbFilter({ streamPrefixes: [] }) as RegexFilter).regex).toBe(MATCH_NOTHING);
      expect(new RegExp(MATCH_NOTHING).test('anything')).toBe(false);
      expect(new RegExp(MATCH_NOTHING).test('')).toBe(false);
    });

    it('asks for a checkpoint every search window', () => {
      expect(toEsdbFilter(undefined).checkpointInterval).toBe(1);
    });
  });

  describe('store namespaces (STORE_NAMESPACE)', () => {
    const ns = new StreamNamespace('t_ab12');
    const regexOf = (f: unknown) => new RegExp((f as RegexFilter).regex);

    it('stores streams under `<namespace>:` and maps them back; the empty namespace keeps names', () => {
      expect(ns.stored('wallet-wal_1')).toBe('t_ab12:wallet-wal_1');
      expect(ns.local('t_ab12:wallet-wal_1')).toBe('wallet-wal_1');
      expect(StreamNamespace.NONE.stored('wallet-wal_1')).toBe('wallet-wal_1');
      expect(StreamNamespace.NONE.local('wallet-wal_1')).toBe('wallet-wal_1');
    });

    it('owns no stream of another namespace, of no namespace, or of the server', () => {
      expect(ns.local('wallet-wal_1')).toBeNull();
      expect(ns.local('t_ab123:wallet-wal_1')).toBeNull(); // a longer namespace with the same start
      expect(ns.local('t_ab1:2-wallet')).toBeNull();
      expect(ns.local('$stats-127.0.0.1:2113')).toBeNull();
    });

    it('refuses a namespace that could run into another one or into a MongoDB database name', () => {
      for (const bad of ['a:b', 'A', 'a-b', 'a.b', 'a/b', 'x'.repeat(33)])
        expect(() => new StreamNamespace(bad)).toThrow(/STORE_NAMESPACE/);
    });

    it('accepts only its own events from $all, named as the port knows them', () => {
      const own = { event: recorded({ streamId: 't_ab12:wallet-wal_1' }) };
      expect(acceptResolved(own, undefined, ns)?.streamId).toBe('wallet-wal_1');
      expect(acceptResolved(own, { streamPrefixes: ['wallet-'] }, ns)?.position).toBe(1234n);
      expect(acceptResolved(own, { streamPrefixes: ['t_ab12:wallet-'] }, ns)).toBeNull();
      expect(acceptResolved(own, { eventTypes: ['CreditsReserved'] }, ns)).not.toBeNull();
      expect(acceptResolved(own, { eventTypes: ['Other'] }, ns)).toBeNull();
      expect(acceptResolved({ event: recorded() }, undefined, ns)).toBeNull();
      expect(
        acceptResolved({ event: recorded({ streamId: 't_other:wallet-wal_1' }) }, undefined, ns),
      ).toBeNull();
      expect(acceptResolved({ event: recorded({ streamId: '$settings' }) }, undefined, ns)).toBeNull();
      // A `$` stream inside the namespace is as much a system stream as one outside it.
      expect(
        acceptResolved({ event: recorded({ streamId: 't_ab12:$ce-wallet' }) }, undefined, ns),
      ).toBeNull();
      // An app without a namespace does not take namespaced streams for system ones.
      expect(acceptResolved(own, undefined)?.streamId).toBe('t_ab12:wallet-wal_1');
    });

    it('names a stream read back in port terms', () => {
      const event = toRecordedEvent(recorded({ streamId: 't_ab12:wallet-wal_1' }), undefined, ns);
      expect(event.streamId).toBe('wallet-wal_1');
    });

    it('asks the server for the namespace by stream name, whatever the port filter', () => {
      for (const filter of [undefined, {}, { streamPrefixes: [''] }, { eventTypes: ['A', 'B'] }]) {
        const esdb = toEsdbFilter(filter, ns) as PrefixesFilter;
        expect(esdb.filterOn).toBe('streamName');
        expect(esdb.prefixes).toEqual(['t_ab12:']);
        expect(esdb.checkpointInterval).toBe(1);
      }
    });

    it('puts the namespace in front of stream prefixes, and still never asks for `$` ones', () => {
      const esdb = toEsdbFilter({ streamPrefixes: ['wallet-', '$ce-', 'account-'] }, ns) as PrefixesFilter;
      expect(esdb.prefixes).toEqual(['t_ab12:wallet-', 't_ab12:account-']);
      const both = toEsdbFilter({ eventTypes: ['A'], streamPrefixes: ['wallet-'] }, ns) as PrefixesFilter;
      expect(both.prefixes).toEqual(['t_ab12:wallet-']); // the types are checked on the client
    });

    it('matches nothing when no prefix is left', () => {
      for (const filter of [{ streamPrefixes: [] }, { streamPrefixes: ['$ce-'] }]) {
        const re = regexOf(toEsdbFilter(filter, ns));
        expect(re.test('t_ab12:wallet-1')).toBe(false);
      }
    });
  });

  describe('errors', () => {
    it('maps WrongExpectedVersionError to ConcurrencyError with the actual revision', () => {
      const error = new WrongExpectedVersionError(undefined, {
        streamName: 'wallet-1',
        expected: 4n,
        current: 6n,
      });
      const mapped = mapEsdbError(error, { streamId: 'wallet-1', expected: 4n, what: 'append' });
      expect(mapped).toBeInstanceOf(ConcurrencyError);
      expect(mapped).toMatchObject({
        streamId: 'wallet-1',
        expected: 4n,
        actual: 6n,
        name: 'ConcurrencyError',
      });
    });

    it('reports a missing stream as no_stream', () => {
      const error = new WrongExpectedVersionError(undefined, {
        streamName: 'wallet-2',
        expected: STREAM_EXISTS,
        current: NO_STREAM,
      });
      const mapped = mapEsdbError(error, { streamId: 'wallet-2', expected: 'stream_exists', what: 'append' });
      expect(mapped).toMatchObject({ streamId: 'wallet-2', expected: 'stream_exists', actual: 'no_stream' });
    });

    it('reads the actual revision in every shape the client uses', () => {
      expect(toActualRevision(5n)).toBe(5n);
      expect(toActualRevision(-1n)).toBe('no_stream');
      expect(toActualRevision(7)).toBe(7n);
      expect(toActualRevision('12')).toBe(12n);
      expect(toActualRevision('no_stream')).toBe('no_stream');
      expect(toActualRevision(undefined)).toBe('no_stream');
    });

    it('takes the stream from the error when the caller gave none', () => {
      const error = new WrongExpectedVersionError(undefined, {
        streamName: 'wallet-3',
        expected: NO_STREAM,
        current: 0n,
      });
      expect(mapEsdbError(error, { what: 'append' })).toMatchObject({ streamId: 'wallet-3', actual: 0n });
    });

    it.each([
      ['UnavailableError', new UnavailableError(undefined, 'connection refused')],
      ['a discovery failure', new Error('Failed to discover after 10 attempts.')],
      [
        'gRPC UNAVAILABLE',
        Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }),
      ],
      ['gRPC DEADLINE_EXCEEDED', Object.assign(new Error('4 DEADLINE_EXCEEDED'), { code: 4 })],
      [
        'a refused socket',
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2113'), { code: 'ECONNREFUSED' }),
      ],
      ['a not-leader error', Object.assign(new Error('not leader'), { type: 'not-leader' })],
    ])('maps %s to StoreUnavailableError', (_name, error) => {
      const mapped = mapEsdbError(error, { what: 'readAll' });
      expect(mapped).toBeInstanceOf(StoreUnavailableError);
      expect((mapped as StoreUnavailableError).cause).toBe(error);
      expect((mapped as Error).message).toMatch(/^readAll: EventStoreDB unavailable/);
    });

    it('passes other errors and already-mapped errors through', () => {
      const other = new Error('bad request');
      expect(mapEsdbError(other, { what: 'append' })).toBe(other);
      const concurrency = new ConcurrencyError('s', 'no_stream', 0n);
      expect(mapEsdbError(concurrency, { what: 'append' })).toBe(concurrency);
      expect(mapEsdbError(undefined, { what: 'append' })).toBeUndefined();
    });

    it('recognises a missing stream on read', () => {
      expect(isStreamNotFound(new StreamNotFoundError(undefined, 'wallet-9'))).toBe(true);
      expect(isStreamNotFound(new Error('nope'))).toBe(false);
      expect(isStreamNotFound(null)).toBe(false);
    });
  });
});
