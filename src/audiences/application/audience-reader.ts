import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { OptedOutNumbers } from '../../compliance/application/queries/opted-out-numbers.query';
import { notFound } from '../../shared/domain-error';
import { ProjectionsService } from '../../shared/projections/projections.service';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { contactSearch, nameKey } from '../domain/contact-search';
import { groupMissing } from '../domain/group.decider';
import {
  AUDIENCES_PROJECTION,
  CONTACT_NAMES,
  CONTACT_NUMBERS,
  ContactDoc,
  CONTACTS,
  createdSort,
  GroupDoc,
  GROUPS,
  IndexEntry,
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

/** One page of an audience (see the AudiencePage query). */
export interface AudiencePageView {
  readonly members: AudienceMember[];
  readonly next: string | null;
  /** The extra times the page's numbers were reached: a number in two groups counts once here. */
  readonly duplicates: number;
}

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

  /** A page of one of the wallet's collections listed newest first, after the cursor's document (404 for an unknown one). */
  async newestFirst<T extends { id: string; walletId: string; createdAt: string }>(
    collection: string,
    walletId: string,
    limit: number,
    startingAfter: string | undefined,
    what: string,
  ): Promise<T[]> {
    await this.caughtUp();
    let afterSort: string | undefined;
    if (startingAfter) {
      const cursor = await this.reads.get<T>(collection, startingAfter);
      if (!cursor || cursor.walletId !== walletId) throw notFound(what, 'starting_after');
      afterSort = createdSort(cursor.createdAt, cursor.id);
    }
    return this.reads.list<T>(collection, { partition: walletId, order: 'desc', limit, afterSort });
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

  /**
   * `limit + 1` contacts for a list page: the wallet's newest first; a group's in number order;
   * a search's in the order of what it searched (number or name).
   */
  async contactDocs(query: ContactsQuery): Promise<ContactDoc[]> {
    await this.caughtUp();
    const { walletId, groupId, limit } = query;
    if (groupId) await this.liveGroup(walletId, groupId, 'group');
    const scope = groupId ?? walletId;
    const cursor = query.startingAfter ? await this.cursor(walletId, query.startingAfter) : null;
    const search = contactSearch(query.search ?? '');
    if (!search && !groupId) {
      const afterSort = cursor ? createdSort(cursor.createdAt, cursor.id) : undefined;
      return this.reads.list<ContactDoc>(CONTACTS, {
        partition: walletId,
        order: 'desc',
        limit: limit + 1,
        afterSort,
      });
    }
    const byName = search?.by === 'name';
    let afterSort: string | undefined;
    if (cursor && byName) {
      const key = nameKey(cursor.name);
      afterSort = key === null ? undefined : nameSort(key, cursor.id);
    } else if (cursor) afterSort = cursor.phoneNumber;
    const entries = await this.reads.list<IndexEntry>(byName ? CONTACT_NAMES : CONTACT_NUMBERS, {
      partition: scope,
      order: 'asc',
      limit: limit + 1,
      sortPrefix: search?.prefix,
      afterSort,
    });
    return this.docs(entries.map((e) => e.contactId));
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
    optOuts = true,
  ): Promise<AudiencePageView> {
    const sources = await Promise.all(
      (audience.groups ?? []).map((groupId) =>
        this.reads.list<IndexEntry>(CONTACT_NUMBERS, {
          partition: groupId,
          order: 'asc',
          limit: limit + 1,
          afterSort: afterNumber ?? undefined,
        }),
      ),
    );
    const singles = (await this.docs(audience.contacts ?? [])).filter(
      (d) => d.walletId === walletId && (afterNumber === null || d.phoneNumber > afterNumber),
    );
    // Each number once, however many groups (or single contacts) reach it.
    const byNumber = new Map<string, string>();
    const reached = new Map<string, number>();
    const reach = (number: string, contactId: string) => {
      byNumber.set(number, contactId);
      reached.set(number, (reached.get(number) ?? 0) + 1);
    };
    for (const entry of sources.flat()) reach(entry.sort, entry.contactId);
    for (const doc of singles) reach(doc.phoneNumber, doc.id);
    const ordered = [...byNumber.keys()].sort(compareText);
    const numbers = ordered.slice(0, limit);
    let duplicates = 0;
    for (const n of numbers) duplicates += (reached.get(n) ?? 1) - 1;
    const docs = await this.docs(numbers.map((n) => byNumber.get(n) as string));
    const optedOut = optOuts
      ? await this.optedOut(
          walletId,
          docs.map((d) => d.phoneNumber),
        )
      : new Set<string>();
    return {
      duplicates,
      members: docs.map((d) => ({
        id: d.id,
        phoneNumber: d.phoneNumber,
        name: d.name,
        fields: d.fields,
        optedOut: optedOut.has(d.phoneNumber),
      })),
      next: ordered.length > limit && numbers.length > 0 ? numbers[numbers.length - 1] : null,
    };
  }
}

/** Numbers are `+` and digits: code-unit order is the stores' order. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
