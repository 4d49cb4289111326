import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import {
  CONTACT_EVENT_TYPES,
  CONTACT_IMPORT_EVENT_TYPES,
  CONTACT_STREAM_PREFIX,
  ContactEvent,
  ContactFields,
  ContactImportEvent,
  GROUP_EVENT_TYPES,
  GROUP_STREAM_PREFIX,
  GroupEvent,
  TEMPLATE_EVENT_TYPES,
  TEMPLATE_STREAM_PREFIX,
  TemplateEvent,
} from '../domain/audience.events';
import { KEY_SEPARATOR, nameKey } from '../domain/contact-search';

export const AUDIENCES_PROJECTION = 'audiences';

/** Contacts by id, listed per wallet newest first. */
export const CONTACTS = 'contacts';
/**
 * The number index: one small entry per contact and scope (its wallet, and each of its groups),
 * sorted by number. A search by number prefix reads one range of it; a group is listed from it;
 * campaigns page through a group in number order, which lets several groups be merged and their
 * duplicates dropped with one page of each in memory.
 */
export const CONTACT_NUMBERS = 'contact-numbers';
/** The name index: one entry per named contact and scope, sorted by its name key (contact-search.ts). */
export const CONTACT_NAMES = 'contact-names';
/** Groups by id with their member count, listed per wallet; a deleted group stays, unlisted, as a tombstone. */
export const GROUPS = 'groups';
/** Templates by id, listed per wallet newest first. */
export const TEMPLATES = 'templates';
/** Imports by id, listed per wallet newest first. */
export const CONTACT_IMPORTS = 'contact-imports';
/** Imports still processing, oldest first: what the import job looks for. */
export const IMPORT_QUEUE = 'contact-import-queue';
export const PROCESSING = 'processing';

export interface ContactDoc {
  readonly id: string;
  readonly walletId: string;
  readonly phoneNumber: string;
  readonly name: string | null;
  readonly fields: ContactFields;
  readonly groups: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** An entry of the number or name index: which contact, under which sort key. */
export interface IndexEntry {
  readonly contactId: string;
  readonly sort: string;
}

export interface GroupDoc {
  readonly id: string;
  readonly walletId: string;
  readonly name: string;
  readonly contacts: number;
  readonly createdAt: string;
  readonly deleted: boolean;
}

export interface TemplateDoc {
  readonly id: string;
  readonly walletId: string;
  readonly name: string;
  readonly message: string;
  readonly placeholders: readonly string[];
  readonly createdAt: string;
}

export interface ImportDoc {
  readonly id: string;
  readonly walletId: string;
  readonly groupId: string | null;
  readonly rowsTotal: number;
  readonly status: 'processing' | 'completed' | 'failed';
  readonly startedAt: string;
}

export const createdSort = (createdAt: string, id: string) => `${createdAt}|${id}`;
export const nameSort = (key: string, contactId: string) => `${key}${KEY_SEPARATOR}${contactId}`;
const numberEntryId = (scope: string, phoneNumber: string) => `${scope}|${phoneNumber}`;
const nameEntryId = (scope: string, contactId: string) => `${scope}|${contactId}`;

/** The audience's read models: contacts and their search indexes, groups, templates and imports. */
export const audiencesProjection: Projection = {
  name: AUDIENCES_PROJECTION,
  kind: 'read-model',
  collections: [CONTACTS, CONTACT_NUMBERS, CONTACT_NAMES, GROUPS, TEMPLATES, CONTACT_IMPORTS, IMPORT_QUEUE],
  filter: {
    // `contact-` covers the number claims and imports too; the event types leave out what no
    // read model needs (the claims, and the uploaded rows, which are large).
    streamPrefixes: [CONTACT_STREAM_PREFIX, GROUP_STREAM_PREFIX, TEMPLATE_STREAM_PREFIX],
    eventTypes: [
      ...CONTACT_EVENT_TYPES,
      ...GROUP_EVENT_TYPES,
      ...TEMPLATE_EVENT_TYPES,
      ...CONTACT_IMPORT_EVENT_TYPES,
    ],
  },
  async apply(recorded: RecordedEvent, view: ProjectionView) {
    const type = recorded.type;
    if ((CONTACT_EVENT_TYPES as readonly string[]).includes(type))
      return applyContact(recorded as unknown as ContactEvent, view);
    if ((GROUP_EVENT_TYPES as readonly string[]).includes(type))
      return applyGroup(recorded as unknown as GroupEvent, view);
    if ((TEMPLATE_EVENT_TYPES as readonly string[]).includes(type))
      return applyTemplate(recorded as unknown as TemplateEvent, view);
    return applyImport(recorded as unknown as ContactImportEvent, view);
  },
};

async function applyContact(event: ContactEvent, view: ProjectionView): Promise<void> {
  if (event.type === 'ContactCreated') {
    const d = event.data;
    const doc: ContactDoc = {
      id: d.contactId,
      walletId: d.walletId,
      phoneNumber: d.phoneNumber,
      name: d.name,
      fields: d.fields,
      groups: d.groups,
      createdAt: d.createdAt,
      updatedAt: d.createdAt,
    };
    putContact(view, doc, true);
    for (const scope of [doc.walletId, ...doc.groups]) putEntries(view, scope, doc, true);
    for (const groupId of doc.groups) await countMembers(view, groupId, +1);
    return;
  }
  const before = await view.get<ContactDoc>(CONTACTS, event.data.contactId);
  if (!before) return;
  switch (event.type) {
    case 'ContactUpdated': {
      const d = event.data;
      const after: ContactDoc = {
        ...before,
        phoneNumber: d.phoneNumber,
        name: d.name,
        fields: d.fields,
        updatedAt: d.updatedAt,
      };
      putContact(view, after);
      // The indexes hold the number and the name only: a change of fields touches neither.
      if (after.phoneNumber === before.phoneNumber && nameKey(after.name) === nameKey(before.name)) return;
      for (const scope of [after.walletId, ...after.groups]) {
        deleteEntries(view, scope, before);
        putEntries(view, scope, after);
      }
      return;
    }
    case 'ContactAddedToGroup': {
      const { groupId, at } = event.data;
      if (before.groups.includes(groupId)) return;
      const after: ContactDoc = { ...before, groups: [...before.groups, groupId], updatedAt: at };
      putContact(view, after);
      putEntries(view, groupId, after);
      await countMembers(view, groupId, +1);
      return;
    }
    case 'ContactRemovedFromGroup': {
      const { groupId, at } = event.data;
      if (!before.groups.includes(groupId)) return;
      putContact(view, { ...before, groups: before.groups.filter((g) => g !== groupId), updatedAt: at });
      deleteEntries(view, groupId, before);
      await countMembers(view, groupId, -1);
      return;
    }
    case 'ContactDeleted':
      view.delete(CONTACTS, before.id);
      for (const scope of [before.walletId, ...before.groups]) deleteEntries(view, scope, before);
      for (const groupId of before.groups) await countMembers(view, groupId, -1);
      return;
  }
}

function putContact(view: ProjectionView, doc: ContactDoc, fresh = false): void {
  view.put(
    CONTACTS,
    doc.id,
    doc,
    { partition: doc.walletId, sort: createdSort(doc.createdAt, doc.id) },
    { fresh },
  );
}

function putEntries(view: ProjectionView, scope: string, doc: ContactDoc, fresh = false): void {
  // Never `fresh`: the number entry's id is the number's, which an earlier contact may have held.
  const byNumber: IndexEntry = { contactId: doc.id, sort: doc.phoneNumber };
  view.put(CONTACT_NUMBERS, numberEntryId(scope, doc.phoneNumber), byNumber, {
    partition: scope,
    sort: byNumber.sort,
  });
  const key = nameKey(doc.name);
  if (key === null) return;
  const byName: IndexEntry = { contactId: doc.id, sort: nameSort(key, doc.id) };
  view.put(
    CONTACT_NAMES,
    nameEntryId(scope, doc.id),
    byName,
    { partition: scope, sort: byName.sort },
    { fresh },
  );
}

function deleteEntries(view: ProjectionView, scope: string, doc: ContactDoc): void {
  view.delete(CONTACT_NUMBERS, numberEntryId(scope, doc.phoneNumber));
  if (nameKey(doc.name) !== null) view.delete(CONTACT_NAMES, nameEntryId(scope, doc.id));
}

async function countMembers(view: ProjectionView, groupId: string, by: number): Promise<void> {
  const group = await view.get<GroupDoc>(GROUPS, groupId);
  if (group) putGroup(view, { ...group, contacts: Math.max(0, group.contacts + by) });
}

function putGroup(view: ProjectionView, doc: GroupDoc, fresh = false): void {
  // A deleted group keeps its document (its id is still known: 404, not reused) but is listed nowhere.
  const index = doc.deleted
    ? undefined
    : { partition: doc.walletId, sort: createdSort(doc.createdAt, doc.id) };
  view.put(GROUPS, doc.id, doc, index, { fresh });
}

async function applyGroup(event: GroupEvent, view: ProjectionView): Promise<void> {
  if (event.type === 'GroupCreated') {
    const d = event.data;
    putGroup(
      view,
      {
        id: d.groupId,
        walletId: d.walletId,
        name: d.name,
        contacts: 0,
        createdAt: d.createdAt,
        deleted: false,
      },
      true,
    );
    return;
  }
  const group = await view.get<GroupDoc>(GROUPS, event.data.groupId);
  if (group) putGroup(view, { ...group, deleted: true });
}

function applyTemplate(event: TemplateEvent, view: ProjectionView): void {
  if (event.type === 'TemplateDeleted') return view.delete(TEMPLATES, event.data.templateId);
  const d = event.data;
  const doc: TemplateDoc = {
    id: d.templateId,
    walletId: d.walletId,
    name: d.name,
    message: d.message,
    placeholders: d.placeholders,
    createdAt: d.createdAt,
  };
  view.put(
    TEMPLATES,
    doc.id,
    doc,
    { partition: doc.walletId, sort: createdSort(doc.createdAt, doc.id) },
    { fresh: true },
  );
}

async function applyImport(event: ContactImportEvent, view: ProjectionView): Promise<void> {
  if (event.type === 'ContactImportStarted') {
    const d = event.data;
    const doc: ImportDoc = {
      id: d.importId,
      walletId: d.walletId,
      groupId: d.groupId,
      rowsTotal: d.rowsTotal,
      status: 'processing',
      startedAt: d.startedAt,
    };
    const sort = createdSort(d.startedAt, d.importId);
    view.put(CONTACT_IMPORTS, d.importId, doc, { partition: d.walletId, sort }, { fresh: true });
    view.put(IMPORT_QUEUE, d.importId, { id: d.importId }, { partition: PROCESSING, sort }, { fresh: true });
    return;
  }
  if (event.type !== 'ContactImportCompleted' && event.type !== 'ContactImportFailed') return;
  view.delete(IMPORT_QUEUE, event.data.importId);
  const doc = await view.get<ImportDoc>(CONTACT_IMPORTS, event.data.importId);
  if (!doc) return;
  const status = event.type === 'ContactImportCompleted' ? 'completed' : 'failed';
  view.put(
    CONTACT_IMPORTS,
    doc.id,
    { ...doc, status },
    { partition: doc.walletId, sort: createdSort(doc.startedAt, doc.id) },
  );
}
