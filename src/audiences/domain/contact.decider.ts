import type { Decider } from '../../shared/decider';
import { DomainError, notFound } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { ContactEvent, ContactFields, ImportMark } from './audience.events';
import { mergeFields, sameFields } from './contact-input';

export interface Contact {
  readonly contactId: string | null;
  readonly walletId: string | null;
  readonly phoneNumber: string | null;
  readonly name: string | null;
  readonly fields: ContactFields;
  /** Group ids in the order joined. */
  readonly groups: readonly string[];
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly deleted: boolean;
  /** The newest import batch that changed it, and how: a batch run again finds its own work here. */
  readonly importMark: (ImportMark & { readonly kind: 'created' | 'updated' }) | null;
}

const initialState = (): Contact => ({
  contactId: null,
  walletId: null,
  phoneNumber: null,
  name: null,
  fields: {},
  groups: [],
  createdAt: null,
  updatedAt: null,
  deleted: false,
  importMark: null,
});

export const contactDecider: Decider<Contact, ContactEvent> = {
  initialState,
  evolve(state, event) {
    switch (event.type) {
      case 'ContactCreated': {
        const d = event.data;
        return {
          ...state,
          contactId: d.contactId,
          walletId: d.walletId,
          phoneNumber: d.phoneNumber,
          name: d.name,
          fields: d.fields,
          groups: [...d.groups],
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          importMark: d.import ? { ...d.import, kind: 'created' } : state.importMark,
        };
      }
      case 'ContactUpdated': {
        const d = event.data;
        return {
          ...state,
          phoneNumber: d.phoneNumber,
          name: d.name,
          fields: d.fields,
          updatedAt: d.updatedAt,
          importMark: d.import ? markUpdated(state, d.import) : state.importMark,
        };
      }
      case 'ContactAddedToGroup':
        return {
          ...state,
          groups: state.groups.includes(event.data.groupId)
            ? state.groups
            : [...state.groups, event.data.groupId],
          updatedAt: event.data.at,
          importMark: event.data.import ? markUpdated(state, event.data.import) : state.importMark,
        };
      case 'ContactRemovedFromGroup':
        return {
          ...state,
          groups: state.groups.filter((g) => g !== event.data.groupId),
          updatedAt: event.data.at,
        };
      case 'ContactDeleted':
        return { ...state, deleted: true, updatedAt: event.data.deletedAt };
      default:
        return state;
    }
  },
};

/** A batch that created the contact and then changed it still created it. */
function markUpdated(state: Contact, mark: ImportMark): Contact['importMark'] {
  const same = state.importMark && state.importMark.id === mark.id && state.importMark.batch === mark.batch;
  return same ? state.importMark : { ...mark, kind: 'updated' };
}

/** A live contact of this wallet: anything else (none, deleted, another wallet's) is not found. */
export const isLiveIn = (state: Contact, walletId: string): boolean =>
  state.contactId !== null && !state.deleted && state.walletId === walletId;

/** The contact, live in this wallet, holding this number: what makes a number's claim valid. */
export const holdsNumber = (state: Contact, phoneNumber: string): boolean =>
  state.contactId !== null && !state.deleted && state.phoneNumber === phoneNumber;

export const contactMissing = (param?: string) => notFound('contact', param);

type Decision = Result<ContactEvent[], DomainError>;

export interface CreateContact {
  readonly contactId: string;
  readonly walletId: string;
  readonly phoneNumber: string;
  readonly name: string | null;
  readonly fields: ContactFields;
  readonly groups: readonly string[];
  readonly now: Date;
  readonly import?: ImportMark;
}

/** Created once: the same id again records nothing. */
export function createContact(state: Contact, cmd: CreateContact): Decision {
  if (state.contactId !== null) return ok([]);
  return ok([
    {
      type: 'ContactCreated',
      data: {
        contactId: cmd.contactId,
        walletId: cmd.walletId,
        phoneNumber: cmd.phoneNumber,
        name: cmd.name,
        fields: cmd.fields,
        groups: [...new Set(cmd.groups)],
        createdAt: cmd.now.toISOString(),
        import: cmd.import ?? null,
      },
    },
  ]);
}

export interface ChangeContact {
  readonly walletId: string;
  readonly phoneNumber?: string;
  /** undefined: unchanged; null: removed. */
  readonly name?: string | null;
  /** Per field: a value sets it, null removes it; others stay. */
  readonly fields?: Readonly<Record<string, string | null>>;
  /** The whole membership (a PATCH's `groups`), or groups to join (`joinGroups`). */
  readonly groups?: readonly string[];
  readonly joinGroups?: readonly string[];
  readonly now: Date;
  readonly import?: ImportMark;
}

/**
 * A partial change: only what differs is recorded (nothing at all when nothing does), so the
 * same change twice, or an import of the same file twice, records no event the second time.
 */
export function changeContact(state: Contact, cmd: ChangeContact): Decision {
  if (!isLiveIn(state, cmd.walletId)) return err(contactMissing());
  const at = cmd.now.toISOString();
  const events: ContactEvent[] = [];
  const merged = mergeFields(state.fields, cmd.fields ?? {});
  if (!merged.ok) return merged;
  const phoneNumber = cmd.phoneNumber ?? (state.phoneNumber as string);
  const name = cmd.name === undefined ? state.name : cmd.name;
  if (phoneNumber !== state.phoneNumber || name !== state.name || !sameFields(merged.value, state.fields)) {
    events.push({
      type: 'ContactUpdated',
      data: {
        contactId: state.contactId as string,
        walletId: cmd.walletId,
        phoneNumber,
        name,
        fields: merged.value,
        updatedAt: at,
        import: cmd.import ?? null,
      },
    });
  }
  const contactId = state.contactId as string;
  const wanted = cmd.groups ?? [...state.groups, ...(cmd.joinGroups ?? [])];
  for (const groupId of new Set(wanted)) {
    if (!state.groups.includes(groupId))
      events.push({
        type: 'ContactAddedToGroup',
        data: { contactId, walletId: cmd.walletId, groupId, at, import: cmd.import ?? null },
      });
  }
  if (cmd.groups) {
    for (const groupId of state.groups) {
      if (!cmd.groups.includes(groupId))
        events.push({
          type: 'ContactRemovedFromGroup',
          data: { contactId, walletId: cmd.walletId, groupId, at },
        });
    }
  }
  return ok(events);
}

/** Leaving a group the contact is not in records nothing; a contact not here is not found. */
export function leaveGroup(state: Contact, cmd: { walletId: string; groupId: string; now: Date }): Decision {
  if (!isLiveIn(state, cmd.walletId)) return err(contactMissing());
  if (!state.groups.includes(cmd.groupId)) return ok([]);
  return ok([
    {
      type: 'ContactRemovedFromGroup',
      data: {
        contactId: state.contactId as string,
        walletId: cmd.walletId,
        groupId: cmd.groupId,
        at: cmd.now.toISOString(),
      },
    },
  ]);
}

export function deleteContact(state: Contact, cmd: { walletId: string; now: Date }): Decision {
  if (!isLiveIn(state, cmd.walletId)) return err(contactMissing());
  return ok([
    {
      type: 'ContactDeleted',
      data: {
        contactId: state.contactId as string,
        walletId: cmd.walletId,
        phoneNumber: state.phoneNumber as string,
        deletedAt: cmd.now.toISOString(),
      },
    },
  ]);
}
