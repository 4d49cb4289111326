import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { OptedOutNumbers } from '../../compliance/application/queries/opted-out-numbers.query';
import { notFound } from '../../shared/domain-error';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { contactSearch, nameMatch } from '../domain/contact-search';
import { groupMissing } from '../domain/group.decider';
import {
  AudienceContact,
  AUDIENCES_PROJECTION,
  CONTACT_NAMES,
  CONTACT_NUMBERS,
  ContactDoc,
  CONTACTS,
  createdSort,
  GROUP_CONTACTS,
  GroupDoc,
  GroupMemberEntry,
  GROUPS,
  NameEntry,
  nameSort,
} from '../projections/audiences.projection';
import { ApiContact, AudienceMember, toApiContact } from './audience-views';

export interface ContactsQuery {
  readonly walletId: string;
  readonly groupId?: string;
  readonly search?: string;
  readonly limit: number;
  readonly startingAfter?: string;
}

export interface Audience {
  readonly groups?: readonly string[];
  readonly contacts?: readonly string[];
}

/** How many name entries a search reads per look (a contact has a few: one per word of its name). */
const NAME_SCAN = 200;

/**
 * The audience's read models, read once they have caught up with the log (a list shows what was
 * just answered), and each contact's opt-out asked of compliance (never copied here).
 */
@Injectable()
export class AudienceReader {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly projections: ProjectionsService,
    private readonly queries: QueryBus,
  ) {}

  caughtUp(): Promise<void> {
    return this.projections.catchUp([AUDIENCES_PROJECTION]);
  }

  waitFor(position: bigint | null): Promise<void> {
    return this.projections.waitFor(position, [AUDIENCES_PROJECTION]);
  }

  get<T>(collection: string, id: string): Promise<T | null> {
    return this.reads.get<T>(collection, id);
  }

  list<T>(...args: Parameters<ReadStore['list']>): Promise<T[]> {
    return this.reads.list<T>(...args);
  }

  /** A group of this wallet that still exists (its document, after the read model caught up), else 404. */
  async liveGroup(walletId: string, groupId: string, param?: string): Promise<GroupDoc> {
    const doc = await this.reads.get<GroupDoc>(GROUPS, groupId);
    if (!doc || doc.deleted || doc.walletId !== walletId) throw groupMissing(param);
    return doc;
  }

  async optedOut(walletId: string, phoneNumbers: readonly string[]): Promise<ReadonlySet<string>> {
    if (phoneNumbers.length === 0) return new Set();
    return this.queries.execute(new OptedOutNumbers(walletId, phoneNumbers));
  }

  /** The contacts as the API shows them: opt-out from compliance, deleted groups left out. */
  async apiContacts(walletId: string, docs: readonly ContactDoc[]): Promise<ApiContact[]> {
    const optedOut = await this.optedOut(
      walletId,
      docs.map((d) => d.phoneNumber),
    );
    const groupIds = [...new Set(docs.flatMap((d) => d.groups))];
    const groups = await Promise.all(groupIds.map((id) => this.reads.get<GroupDoc>(GROUPS, id)));
    // A group not in the read model yet is shown; only a deleted one is left out.
    const deleted = new Set(groupIds.filter((_, i) => groups[i]?.deleted === true));
    return docs.map((doc) =>
      toApiContact(
        doc,
        optedOut.has(doc.phoneNumber),
        doc.groups.filter((g) => !deleted.has(g)),
      ),
    );
  }

  /** `limit + 1` contacts for a list page: newest first, or by the searched name or number. */
  async contactDocs(query: ContactsQuery): Promise<ContactDoc[]> {
    await this.caughtUp();
    const { walletId, groupId, limit } = query;
    if (groupId) await this.liveGroup(walletId, groupId, 'group');
    const scope = groupId ?? walletId;
    const cursor = query.startingAfter ? await this.cursor(walletId, query.startingAfter) : null;
    const search = contactSearch(query.search ?? '');
    if (!search) {
      const afterSort = cursor ? createdSort(cursor.createdAt, cursor.id) : undefined;
      if (!groupId)
        return this.reads.list<ContactDoc>(CONTACTS, {
          partition: walletId,
          order: 'desc',
          limit: limit + 1,
          afterSort,
        });
      const members = await this.reads.list<GroupMemberEntry>(GROUP_CONTACTS, {
        partition: groupId,
        order: 'desc',
        limit: limit + 1,
        afterSort,
      });
      return this.docs(members.map((m) => m.contactId));
    }
    if (search.by === 'number') {
      const entries = await this.reads.list<AudienceContact>(CONTACT_NUMBERS, {
        partition: scope,
        order: 'asc',
        limit: limit + 1,
        sortPrefix: search.prefix,
        afterSort: cursor?.phoneNumber,
      });
      return this.docs(entries.map((e) => e.id));
    }
    return this.docs(await this.byName(scope, search.prefix, limit + 1, cursor));
  }

  /**
   * Contact ids whose name has a word starting with the prefix, in the order of the matching key.
   * A contact has one entry per word, so only its first matching key counts (the others are
   * skipped), and a page never shows a contact twice.
   */
  private async byName(
    scope: string,
    prefix: string,
    wanted: number,
    cursor: ContactDoc | null,
  ): Promise<string[]> {
    let afterSort: string | undefined;
    if (cursor) {
      const key = nameMatch(cursor.name, prefix);
      if (key === null) throw notFound('contact', 'starting_after');
      afterSort = nameSort(key, cursor.id);
    }
    const ids: string[] = [];
    for (;;) {
      const entries = await this.reads.list<NameEntry>(CONTACT_NAMES, {
        partition: scope,
        order: 'asc',
        limit: NAME_SCAN,
        sortPrefix: prefix,
        afterSort,
      });
      for (const entry of entries) {
        const key = nameMatch(entry.name, prefix);
        if (key !== null && nameSort(key, entry.contactId) === entry.sort) ids.push(entry.contactId);
        if (ids.length >= wanted) return ids;
      }
      if (entries.length < NAME_SCAN) return ids;
      afterSort = entries[entries.length - 1].sort;
    }
  }

  private async cursor(walletId: string, contactId: string): Promise<ContactDoc> {
    const doc = await this.reads.get<ContactDoc>(CONTACTS, contactId);
    if (!doc || doc.walletId !== walletId) throw notFound('contact', 'starting_after');
    return doc;
  }

  private async docs(ids: readonly string[]): Promise<ContactDoc[]> {
    const docs = await Promise.all(ids.map((id) => this.reads.get<ContactDoc>(CONTACTS, id)));
    return docs.filter((d): d is ContactDoc => d !== null);
  }

  /**
   * One page of an audience (groups and single contacts), in number order after `afterNumber`,
   * each number once however many groups reach it. Reads one page of each group's number index
   * and merges them: memory is groups × limit, whatever the audience's size.
   */
  async audiencePage(
    walletId: string,
    audience: Audience,
    afterNumber: string | null,
    limit: number,
  ): Promise<{ members: AudienceMember[]; next: string | null }> {
    const groups = audience.groups ?? [];
    const sources = await Promise.all(
      groups.map((groupId) =>
        this.reads.list<AudienceContact>(CONTACT_NUMBERS, {
          partition: groupId,
          order: 'asc',
          limit: limit + 1,
          afterSort: afterNumber ?? undefined,
        }),
      ),
    );
    const singles = (await this.docs(audience.contacts ?? []))
      .filter((d) => d.walletId === walletId && (afterNumber === null || d.phoneNumber > afterNumber))
      .map((d): AudienceContact => ({
        id: d.id,
        phoneNumber: d.phoneNumber,
        name: d.name,
        fields: d.fields,
      }));
    const byNumber = new Map<string, AudienceContact>();
    for (const contact of [...sources.flat(), ...singles]) byNumber.set(contact.phoneNumber, contact);
    const ordered = [...byNumber.values()].sort((a, b) => compareText(a.phoneNumber, b.phoneNumber));
    const page = ordered.slice(0, limit);
    const more = ordered.length > limit;
    const optedOut = await this.optedOut(
      walletId,
      page.map((c) => c.phoneNumber),
    );
    return {
      members: page.map((c) => ({ ...c, optedOut: optedOut.has(c.phoneNumber) })),
      next: more && page.length > 0 ? page[page.length - 1].phoneNumber : null,
    };
  }
}

/** Numbers are `+` and digits: code-unit order is the stores' order. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
