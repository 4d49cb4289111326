import { fold } from '../../shared/decider';
import type { ContactEvent } from './audience.events';
import { changeContact, contactDecider, createContact, deleteContact, leaveGroup } from './contact.decider';

const now = new Date('2026-11-24T10:00:00Z');
const later = new Date('2026-11-24T11:00:00Z');
const given = (...events: ContactEvent[]) => fold(contactDecider, events);
const events = <T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!result.ok) throw result.error;
  return result.value;
};
const created = events(
  createContact(contactDecider.initialState(), {
    contactId: 'con_1',
    walletId: 'wal_1',
    phoneNumber: '+233241234567',
    name: 'Ama',
    fields: { class: 'JSS 2' },
    groups: ['grp_1', 'grp_1'],
    now,
  }),
);

describe('contact decider', () => {
  it('creates a contact once, its groups without repeats', () => {
    expect(created).toEqual([
      {
        type: 'ContactCreated',
        data: expect.objectContaining({
          contactId: 'con_1',
          groups: ['grp_1'],
          createdAt: now.toISOString(),
          import: null,
        }),
      },
    ]);
    expect(events(createContact(given(...created), { ...created[0].data, now } as never))).toEqual([]);
  });

  it('records only what a change changes, and nothing for the same change twice', () => {
    const change = {
      walletId: 'wal_1',
      name: 'Ama Mensah',
      fields: { class: 'JSS 3', house: 'Blue' },
      now: later,
    };
    const first = events(changeContact(given(...created), change));
    expect(first).toEqual([
      {
        type: 'ContactUpdated',
        data: expect.objectContaining({ name: 'Ama Mensah', fields: { class: 'JSS 3', house: 'Blue' } }),
      },
    ]);
    expect(events(changeContact(given(...created, ...first), change))).toEqual([]);
    const removed = events(
      changeContact(given(...created, ...first), { walletId: 'wal_1', fields: { house: null }, now }),
    );
    expect(given(...created, ...first, ...removed).fields).toEqual({ class: 'JSS 3' });
  });

  it('joins groups, replaces the list when given whole, and leaves one it is in', () => {
    const joined = events(
      changeContact(given(...created), { walletId: 'wal_1', joinGroups: ['grp_1', 'grp_2'], now }),
    );
    expect(joined.map((e) => [e.type, (e.data as { groupId: string }).groupId])).toEqual([
      ['ContactAddedToGroup', 'grp_2'],
    ]);
    const replaced = events(
      changeContact(given(...created, ...joined), { walletId: 'wal_1', groups: ['grp_3'], now }),
    );
    expect(replaced.map((e) => e.type)).toEqual([
      'ContactAddedToGroup',
      'ContactRemovedFromGroup',
      'ContactRemovedFromGroup',
    ]);
    expect(given(...created, ...joined, ...replaced).groups).toEqual(['grp_3']);
    expect(events(leaveGroup(given(...created), { walletId: 'wal_1', groupId: 'grp_9', now }))).toEqual([]);
    expect(
      events(leaveGroup(given(...created), { walletId: 'wal_1', groupId: 'grp_1', now })).map((e) => e.type),
    ).toEqual(['ContactRemovedFromGroup']);
  });

  it('refuses a change past 20 fields', () => {
    const fields = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, 'x']));
    expect(changeContact(given(...created), { walletId: 'wal_1', fields, now })).toMatchObject({
      ok: false,
      error: { code: 'too_many_fields' },
    });
  });

  it('is not found from another wallet, nor once deleted', () => {
    expect(changeContact(given(...created), { walletId: 'wal_2', name: 'x', now })).toMatchObject({
      ok: false,
      error: { code: 'resource_missing' },
    });
    const deleted = events(deleteContact(given(...created), { walletId: 'wal_1', now }));
    expect(deleted).toEqual([
      { type: 'ContactDeleted', data: expect.objectContaining({ phoneNumber: '+233241234567' }) },
    ]);
    expect(deleteContact(given(...created, ...deleted), { walletId: 'wal_1', now }).ok).toBe(false);
    expect(changeContact(given(...created, ...deleted), { walletId: 'wal_1', name: 'x', now }).ok).toBe(
      false,
    );
  });

  it('remembers which import batch changed it last, and that a batch which created it created it', () => {
    const mark = { id: 'imp_1', batch: 3 };
    const byImport = events(
      createContact(contactDecider.initialState(), { ...created[0].data, now, import: mark } as never),
    );
    const sameBatch = events(
      changeContact(given(...byImport), { walletId: 'wal_1', joinGroups: ['grp_2'], now, import: mark }),
    );
    expect(given(...byImport, ...sameBatch).importMark).toEqual({ ...mark, kind: 'created' });
    const next = events(
      changeContact(given(...byImport, ...sameBatch), {
        walletId: 'wal_1',
        name: 'New',
        now,
        import: { id: 'imp_1', batch: 4 },
      }),
    );
    expect(given(...byImport, ...sameBatch, ...next).importMark).toEqual({
      id: 'imp_1',
      batch: 4,
      kind: 'updated',
    });
  });
});
