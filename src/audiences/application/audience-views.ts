import type { ContactFields, ImportRowError } from '../domain/audience.events';
import type { ContactImport } from '../domain/contact-import.decider';
import type { Contact } from '../domain/contact.decider';
import type { Template } from '../domain/template.decider';
import type { ContactDoc, GroupDoc, TemplateDoc } from '../projections/audiences.projection';

/** The API's objects (API.md, Audiences), built from the log's states or the read models' documents. */
export interface ApiContact {
  readonly object: 'contact';
  readonly id: string;
  readonly phone_number: string;
  readonly name: string | null;
  readonly fields: ContactFields;
  readonly groups: readonly string[];
  /** On the wallet's opt-out list (compliance's, the one source of truth): no promotional messages. */
  readonly opted_out: boolean;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface ApiGroup {
  readonly object: 'group';
  readonly id: string;
  readonly name: string;
  readonly contacts: number;
  readonly created_at: string;
}

export interface ApiTemplate {
  readonly object: 'template';
  readonly id: string;
  readonly name: string;
  readonly message: string;
  readonly placeholders: readonly string[];
  readonly created_at: string;
}

export interface ApiContactImport {
  readonly object: 'contact_import';
  readonly id: string;
  readonly status: 'processing' | 'completed' | 'failed';
  readonly group: string | null;
  readonly default_country: string | null;
  readonly rows_total: number;
  readonly rows_done: number;
  readonly created: number;
  readonly updated: number;
  readonly errors_count: number;
  readonly errors: readonly ImportRowError[];
  readonly failure: { readonly code: string; readonly message: string } | null;
  readonly created_at: string;
  readonly completed_at: string | null;
}

/** A member of a campaign's audience: the contact as a message to it needs it, and its opt-out. */
export interface AudienceMember {
  readonly id: string;
  readonly phoneNumber: string;
  readonly name: string | null;
  readonly fields: ContactFields;
  /** On the wallet's opt-out list now: a promotional campaign skips it. */
  readonly optedOut: boolean;
}

export const toApiContact = (
  doc: ContactDoc,
  optedOut: boolean,
  liveGroups: readonly string[],
): ApiContact => ({
  object: 'contact',
  id: doc.id,
  phone_number: doc.phoneNumber,
  name: doc.name,
  fields: doc.fields,
  groups: liveGroups,
  opted_out: optedOut,
  created_at: doc.createdAt,
  updated_at: doc.updatedAt,
});

/** A live contact's stream state as the read model's document (what a write answers from). */
export const contactDoc = (state: Contact): ContactDoc => ({
  id: state.contactId as string,
  walletId: state.walletId as string,
  phoneNumber: state.phoneNumber as string,
  name: state.name,
  fields: state.fields,
  groups: state.groups,
  createdAt: state.createdAt as string,
  updatedAt: state.updatedAt as string,
});

export const toApiGroup = (doc: GroupDoc): ApiGroup => ({
  object: 'group',
  id: doc.id,
  name: doc.name,
  contacts: doc.contacts,
  created_at: doc.createdAt,
});

export const toApiTemplate = (doc: TemplateDoc): ApiTemplate => ({
  object: 'template',
  id: doc.id,
  name: doc.name,
  message: doc.message,
  placeholders: doc.placeholders,
  created_at: doc.createdAt,
});

export const templateDoc = (state: Template): TemplateDoc => ({
  id: state.templateId as string,
  walletId: state.walletId as string,
  name: state.name as string,
  message: state.message as string,
  placeholders: state.placeholders,
  createdAt: state.createdAt as string,
});

export const toApiContactImport = (state: ContactImport): ApiContactImport => ({
  object: 'contact_import',
  id: state.importId as string,
  status: state.status ?? 'processing',
  group: state.groupId,
  default_country: state.defaultCountry,
  rows_total: state.rowsTotal,
  rows_done: state.rowsDone,
  created: state.created,
  updated: state.updated,
  errors_count: state.errorsCount,
  errors: state.errors,
  failure: state.failure,
  created_at: state.startedAt as string,
  completed_at: state.finishedAt,
});
