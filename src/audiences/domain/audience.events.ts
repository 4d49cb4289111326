import type { DomainEvent } from '../../shared/decider';

/**
 * The audience of a wallet (API.md, Audiences): its contacts, the numbers they hold (one contact
 * per number per wallet), its groups, its templates and its CSV imports. Every stream is one
 * small aggregate; nothing here is ever a list that grows with the audience.
 */

/** Which import batch caused a contact's change: what makes a batch run twice count once. */
export interface ImportMark {
  readonly id: string;
  readonly batch: number;
}

// ---- One contact: stream contact-<contactId> ------------------------------------------------

export const CONTACT_STREAM_PREFIX = 'contact-';
export const contactStream = (contactId: string) => `${CONTACT_STREAM_PREFIX}${contactId}`;

export type ContactFields = Readonly<Record<string, string>>;

export type ContactCreated = DomainEvent<
  'ContactCreated',
  {
    contactId: string;
    walletId: string;
    phoneNumber: string;
    name: string | null;
    fields: ContactFields;
    groups: readonly string[];
    createdAt: string;
    import: ImportMark | null;
  }
>;
/** The contact as it now is (number, name and every field): a reader needs no earlier event. */
export type ContactUpdated = DomainEvent<
  'ContactUpdated',
  {
    contactId: string;
    walletId: string;
    phoneNumber: string;
    name: string | null;
    fields: ContactFields;
    updatedAt: string;
    import: ImportMark | null;
  }
>;
export type ContactAddedToGroup = DomainEvent<
  'ContactAddedToGroup',
  { contactId: string; walletId: string; groupId: string; at: string; import: ImportMark | null }
>;
export type ContactRemovedFromGroup = DomainEvent<
  'ContactRemovedFromGroup',
  { contactId: string; walletId: string; groupId: string; at: string }
>;
/** Only the contact goes: its messages, and the opt-out list's word on its number, stay. */
export type ContactDeleted = DomainEvent<
  'ContactDeleted',
  { contactId: string; walletId: string; phoneNumber: string; deletedAt: string }
>;
export type ContactEvent =
  ContactCreated | ContactUpdated | ContactAddedToGroup | ContactRemovedFromGroup | ContactDeleted;
export const CONTACT_EVENT_TYPES: readonly ContactEvent['type'][] = [
  'ContactCreated',
  'ContactUpdated',
  'ContactAddedToGroup',
  'ContactRemovedFromGroup',
  'ContactDeleted',
];

// ---- A number of a wallet: stream contact-number-<walletId>-<E.164> -------------------------

/**
 * The uniqueness guard (as accounts' `email-<hash>`): a number belongs to at most one contact of
 * a wallet, decided by appending to this stream at its exact revision, so of two processes
 * creating the same number at once only one wins.
 */
export const CONTACT_NUMBER_STREAM_PREFIX = 'contact-number-';
export const contactNumberStream = (walletId: string, phoneNumber: string) =>
  `${CONTACT_NUMBER_STREAM_PREFIX}${walletId}-${phoneNumber}`;

export type ContactNumberClaimed = DomainEvent<
  'ContactNumberClaimed',
  {
    walletId: string;
    phoneNumber: string;
    contactId: string;
    claimedAt: string;
    /** The import batch that claimed it for a new contact: its run again finishes that contact. */
    import: ImportMark | null;
  }
>;
export type ContactNumberReleased = DomainEvent<
  'ContactNumberReleased',
  { walletId: string; phoneNumber: string; contactId: string; releasedAt: string }
>;
export type ContactNumberEvent = ContactNumberClaimed | ContactNumberReleased;

// ---- One group: stream group-<groupId> ------------------------------------------------------

export const GROUP_STREAM_PREFIX = 'group-';
export const groupStream = (groupId: string) => `${GROUP_STREAM_PREFIX}${groupId}`;

export type GroupCreated = DomainEvent<
  'GroupCreated',
  { groupId: string; walletId: string; name: string; createdAt: string }
>;
/** The group goes, its contacts stay (their membership of it is no longer shown). */
export type GroupDeleted = DomainEvent<
  'GroupDeleted',
  { groupId: string; walletId: string; deletedAt: string }
>;
export type GroupEvent = GroupCreated | GroupDeleted;
export const GROUP_EVENT_TYPES: readonly GroupEvent['type'][] = ['GroupCreated', 'GroupDeleted'];

// ---- One template: stream template-<templateId> ---------------------------------------------

export const TEMPLATE_STREAM_PREFIX = 'template-';
export const templateStream = (templateId: string) => `${TEMPLATE_STREAM_PREFIX}${templateId}`;

export type TemplateCreated = DomainEvent<
  'TemplateCreated',
  {
    templateId: string;
    walletId: string;
    name: string;
    message: string;
    placeholders: readonly string[];
    createdAt: string;
  }
>;
export type TemplateDeleted = DomainEvent<
  'TemplateDeleted',
  { templateId: string; walletId: string; deletedAt: string }
>;
export type TemplateEvent = TemplateCreated | TemplateDeleted;
export const TEMPLATE_EVENT_TYPES: readonly TemplateEvent['type'][] = ['TemplateCreated', 'TemplateDeleted'];

// ---- One CSV import: stream contact-import-<importId>, its rows in contact-import-rows-<id> --

export const CONTACT_IMPORT_STREAM_PREFIX = 'contact-import-';
export const contactImportStream = (importId: string) => `${CONTACT_IMPORT_STREAM_PREFIX}${importId}`;
/** The file's rows, as uploaded, in chunks: the job reads them from the log, so any process can resume it. */
export const contactImportRowsStream = (importId: string) => `contact-import-rows-${importId}`;

/** Where the columns of the file go (header positions). */
export interface ImportColumns {
  readonly phone: number;
  readonly name: number | null;
  /** [position, field name] for every other named column. */
  readonly fields: readonly (readonly [number, string])[];
  /** How many columns the header has: a row with another count is refused by line. */
  readonly width: number;
}

export interface ImportRowError {
  readonly line: number;
  readonly code: string;
  readonly message: string;
}

/**
 * One chunk of the file: its rows as CSV text, each row led by its line in the file (a quoted cell
 * may span lines). One string rather than arrays of cells: a chunk costs its text's size in memory.
 */
export type ContactImportRowsUploaded = DomainEvent<
  'ContactImportRowsUploaded',
  { importId: string; chunk: number; rows: number; csv: string }
>;

export type ContactImportStarted = DomainEvent<
  'ContactImportStarted',
  {
    importId: string;
    walletId: string;
    groupId: string | null;
    defaultCountry: string | null;
    columns: ImportColumns;
    rowsTotal: number;
    chunks: number;
    startedAt: string;
  }
>;
/** A process takes the job (at the stream's revision: one at a time), until `leaseUntil`. */
export type ContactImportTaken = DomainEvent<
  'ContactImportTaken',
  { importId: string; instance: string; leaseUntil: string; at: string }
>;
/** One chunk applied: its contacts' events were appended with this one (one transaction where the store has them). */
export type ContactImportProgressed = DomainEvent<
  'ContactImportProgressed',
  {
    importId: string;
    chunk: number;
    rows: number;
    created: number;
    updated: number;
    errorsCount: number;
    /** This chunk's errors, as many as still fit in the first 100 of the import. */
    errors: readonly ImportRowError[];
    leaseUntil: string;
    at: string;
  }
>;
export type ContactImportCompleted = DomainEvent<
  'ContactImportCompleted',
  { importId: string; completedAt: string }
>;
export type ContactImportFailed = DomainEvent<
  'ContactImportFailed',
  { importId: string; code: string; message: string; failedAt: string }
>;
export type ContactImportEvent =
  | ContactImportStarted
  | ContactImportTaken
  | ContactImportProgressed
  | ContactImportCompleted
  | ContactImportFailed;
export const CONTACT_IMPORT_EVENT_TYPES: readonly ContactImportEvent['type'][] = [
  'ContactImportStarted',
  'ContactImportTaken',
  'ContactImportProgressed',
  'ContactImportCompleted',
  'ContactImportFailed',
];
