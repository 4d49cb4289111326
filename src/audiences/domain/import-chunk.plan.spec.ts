import { fold } from '../../shared/decider';
import type { ContactEvent, ContactNumberEvent } from './audience.events';
import { contactNumberDecider } from './contact-number.decider';
import { contactDecider } from './contact.decider';
import { AtRevision, mergeRowsByNumber, NumberStreams, planImportChunk } from './import-chunk.plan';

const now = new Date('2026-11-24T10:00:00Z');
const mark = { id: 'imp_1', batch: 0 };
const A = '+233241111111';
const B = '+233242222222';

/** The streams after applying a plan's appends to them (as the store would). */
function applied(
  streams: Map<string, NumberStreams>,
  plan: ReturnType<typeof planImportChunk>,
): Map<string, NumberStreams> {
  const byStream = new Map(plan.appends.map((a) => [a.streamId, a.events]));
  const next = new Map<string, NumberStreams>();
  for (const [number, { claim, holder }] of streams) {
    const claimEvents = (byStream.get(`contact-number-wal_1-${number}`) ?? []) as ContactNumberEvent[];
    const claimState = fold(contactNumberDecider, claimEvents, claim.state);
    const holderId = claimState.holder;
    const previous = holderId && holder?.state.contactId === holderId ? holder : null;
    const contactEvents = holderId ? ((byStream.get(`contact-${holderId}`) ?? []) as ContactEvent[]) : [];
    const at = <S>(state: S, revision: bigint, added: number): AtRevision<S> => ({
      state,
      revision: revision + BigInt(added),
    });
    next.set(number, {
      claim: at(claimState, claim.revision, claimEvents.length),
      holder: holderId
        ? at(
            fold(contactDecider, contactEvents, previous?.state ?? contactDecider.initialState()),
            previous?.revision ?? -1n,
            contactEvents.length,
          )
        : null,
    });
  }
  return next;
}

const empty = (): NumberStreams => ({
  claim: { state: contactNumberDecider.initialState(), revision: -1n },
  holder: null,
});
let ids = 0;
const plan = (
  streams: Map<string, NumberStreams>,
  rows = defaultRows,
  groupId: string | null = 'grp_1',
  batch = mark,
) =>
  planImportChunk({
    walletId: 'wal_1',
    groupId,
    mark: batch,
    rows,
    streams,
    newContactId: () => `con_${++ids}`,
    now,
  });
const defaultRows = mergeRowsByNumber([
  { line: 2, phoneNumber: A, name: 'Ama', fields: { class: 'JSS 1' } },
  { line: 3, phoneNumber: B, name: null, fields: { class: 'JSS 2' } },
  { line: 4, phoneNumber: A, name: null, fields: { house: 'Blue' } },
]);

describe('planning one chunk of an import', () => {
  it('merges a number’s rows, creates contacts with their claims, in the group', () => {
    expect(defaultRows).toEqual([
      { phoneNumber: A, lines: [2, 4], name: 'Ama', fields: { class: 'JSS 1', house: 'Blue' } },
      { phoneNumber: B, lines: [3], name: null, fields: { class: 'JSS 2' } },
    ]);
    const streams = new Map([
      [A, empty()],
      [B, empty()],
    ]);
    const first = plan(streams);
    expect(first).toMatchObject({ created: 2, updated: 0, errors: [] });
    expect(
      first.appends.map((a) => [
        a.streamId.replace(/con_\d+/, 'con_*'),
        a.events.map((e) => e.type),
        a.revision,
      ]),
    ).toEqual([
      [`contact-number-wal_1-${A}`, ['ContactNumberClaimed'], -1n],
      ['contact-con_*', ['ContactCreated'], -1n],
      [`contact-number-wal_1-${B}`, ['ContactNumberClaimed'], -1n],
      ['contact-con_*', ['ContactCreated'], -1n],
    ]);
    const created = first.appends[1].events[0] as Extract<ContactEvent, { type: 'ContactCreated' }>;
    expect(created.data).toMatchObject({
      groups: ['grp_1'],
      fields: { class: 'JSS 1', house: 'Blue' },
      import: mark,
    });
  });

  it('counts a chunk run again (its appends landed, its progress did not) exactly as the first run, recording nothing', () => {
    const streams = new Map([
      [A, empty()],
      [B, empty()],
    ]);
    const first = plan(streams);
    const again = plan(applied(streams, first));
    expect(again).toEqual({ appends: [], created: 2, updated: 0, errors: [] });
  });

  it('finishes a contact whose claim this batch wrote but whose contact it never did', () => {
    const streams = new Map([[A, empty()]]);
    const rows = [defaultRows[0]];
    const first = plan(streams, rows);
    const claimOnly = {
      ...first,
      appends: first.appends.filter((a) => a.streamId.startsWith('contact-number-')),
    };
    const after = applied(streams, claimOnly);
    const again = plan(after, rows);
    const claimedFor = (
      first.appends[0].events[0] as Extract<ContactNumberEvent, { type: 'ContactNumberClaimed' }>
    ).data.contactId;
    expect(again.appends.map((a) => a.streamId)).toEqual([`contact-${claimedFor}`]);
    expect(again.created).toBe(1);
  });

  it('updates what a later import changes (fields merged, group joined), and a same file again changes nothing', () => {
    const streams = new Map([
      [A, empty()],
      [B, empty()],
    ]);
    const imported = applied(streams, plan(streams));
    const second = { id: 'imp_2', batch: 0 };
    expect(plan(imported, defaultRows, 'grp_1', second)).toEqual({
      appends: [],
      created: 0,
      updated: 0,
      errors: [],
    });
    const changed = plan(
      imported,
      mergeRowsByNumber([{ line: 2, phoneNumber: A, name: null, fields: { class: 'JSS 2' } }]),
      'grp_2',
      second,
    );
    expect(changed.updated).toBe(1);
    expect(changed.appends[0].events.map((e) => e.type)).toEqual(['ContactUpdated', 'ContactAddedToGroup']);
  });

  it('reports a row that would take a contact past 20 fields by its line', () => {
    const streams = new Map([[A, empty()]]);
    const imported = applied(streams, plan(streams, [defaultRows[0]]));
    const fields = Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`f${i}`, 'x']));
    const result = plan(imported, [{ phoneNumber: A, lines: [9], name: null, fields }], null, {
      id: 'imp_2',
      batch: 0,
    });
    expect(result.errors).toEqual([{ line: 9, code: 'too_many_fields', message: expect.any(String) }]);
    expect(result.appends).toEqual([]);
  });
});
