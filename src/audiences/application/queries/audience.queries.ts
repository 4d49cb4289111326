import { Query } from '@nestjs/cqrs';
import type { ListPage } from '../../../shared/http/pagination';
import type { Audience, AudiencePageView, ContactsQuery } from '../audience-reader';
import type { ApiContact, ApiContactImport, ApiGroup, ApiTemplate } from '../audience-views';

/** One contact, from the log (so what a write just answered): 404 for another wallet's. */
export class ContactById extends Query<ApiContact> {
  constructor(
    readonly walletId: string,
    readonly contactId: string,
  ) {
    super();
  }
}

/** A page of contacts: newest first, or by name or number prefix (`search`), in the wallet or a group. */
export class ContactsPage extends Query<ListPage<ApiContact>> {
  constructor(readonly query: ContactsQuery) {
    super();
  }
}

export class GroupById extends Query<ApiGroup> {
  constructor(
    readonly walletId: string,
    readonly groupId: string,
  ) {
    super();
  }
}

/** The wallet's groups, newest first, each with its number of contacts. */
export class GroupsList extends Query<ListPage<ApiGroup>> {
  constructor(
    readonly walletId: string,
    readonly limit: number,
    readonly startingAfter?: string,
  ) {
    super();
  }
}

export class TemplateById extends Query<ApiTemplate> {
  constructor(
    readonly walletId: string,
    readonly templateId: string,
  ) {
    super();
  }
}

export class TemplatesList extends Query<ListPage<ApiTemplate>> {
  constructor(
    readonly walletId: string,
    readonly limit: number,
    readonly startingAfter?: string,
  ) {
    super();
  }
}

/** An import with its progress, counts and first 100 errors, from the log (as fresh as the job). */
export class ContactImportById extends Query<ApiContactImport> {
  constructor(
    readonly walletId: string,
    readonly importId: string,
  ) {
    super();
  }
}

/** The wallet's latest imports, newest first (the console's Contacts page). */
export class RecentContactImports extends Query<ApiContactImport[]> {
  constructor(
    readonly walletId: string,
    readonly limit: number,
  ) {
    super();
  }
}

/**
 * One page of an audience for a campaign (docs/architecture.md, Audiences): the contacts of the
 * groups and the single contacts named, in phone-number order after `afterNumber`, each number
 * once, with its fields and its opt-out; `next` is the cursor of the following page (null at the
 * end). Memory is one page of each group. Unknown or deleted groups and contacts are `404` with
 * `param` `audience.groups[i]` / `audience.contacts[i]`. With `catchUp` (the first page) the
 * read models are first brought up to the log's head, so the audience includes every contact
 * written before the campaign. `duplicates` counts the extra times a number of the page was
 * reached (through a second group, or as a single contact too): a campaign's `skipped.duplicate`.
 * Without `optOuts` (a transactional campaign sends to opted-out numbers) no opt-out is read and
 * every member's `optedOut` is false.
 */
export class AudiencePage extends Query<AudiencePageView> {
  constructor(
    readonly walletId: string,
    readonly audience: Audience,
    readonly afterNumber: string | null,
    readonly limit: number,
    readonly catchUp = true,
    readonly optOuts = true,
  ) {
    super();
  }
}
