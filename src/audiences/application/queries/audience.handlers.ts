import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListPage, page } from '../../../shared/http/pagination';
import { isIdOf } from '../../../shared/ids';
import { contactMissing, isLiveIn } from '../../domain/contact.decider';
import { importMissing } from '../../domain/contact-import.decider';
import { groupMissing } from '../../domain/group.decider';
import { templateIsLiveIn, templateMissing } from '../../domain/template.decider';
import {
  CONTACT_IMPORTS,
  ContactDoc,
  CONTACTS,
  GroupDoc,
  GROUPS,
  ImportDoc,
  TemplateDoc,
  TEMPLATES,
} from '../../projections/audiences.projection';
import { AudienceReader } from '../audience-reader';
import { AudienceStore } from '../audience-store';
import {
  ApiContact,
  ApiContactImport,
  ApiGroup,
  ApiTemplate,
  contactDoc,
  templateDoc,
  toApiContactImport,
  toApiGroup,
  toApiTemplate,
} from '../audience-views';
import {
  AudiencePage,
  ContactById,
  ContactImportById,
  ContactsPage,
  GroupById,
  GroupsList,
  RecentContactImports,
  TemplateById,
  TemplatesList,
} from './audience.queries';

@QueryHandler(ContactById)
export class ContactByIdHandler implements IQueryHandler<ContactById, ApiContact> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
  ) {}

  async execute({ walletId, contactId }: ContactById): Promise<ApiContact> {
    if (!isIdOf('con', contactId)) throw contactMissing('id');
    const { state } = await this.store.contact(contactId);
    if (!isLiveIn(state, walletId)) throw contactMissing('id');
    const [view] = await this.reader.apiContacts(walletId, [contactDoc(state)]);
    return view;
  }
}

@QueryHandler(ContactsPage)
export class ContactsPageHandler implements IQueryHandler<ContactsPage, ListPage<ApiContact>> {
  constructor(private readonly reader: AudienceReader) {}

  async execute({ query }: ContactsPage): Promise<ListPage<ApiContact>> {
    const docs = await this.reader.contactDocs(query);
    return page(await this.reader.apiContacts(query.walletId, docs.slice(0, query.limit + 1)), query.limit);
  }
}

@QueryHandler(GroupById)
export class GroupByIdHandler implements IQueryHandler<GroupById, ApiGroup> {
  constructor(private readonly reader: AudienceReader) {}

  async execute({ walletId, groupId }: GroupById): Promise<ApiGroup> {
    if (!isIdOf('grp', groupId)) throw groupMissing('id');
    await this.reader.caughtUp();
    return toApiGroup(await this.reader.liveGroup(walletId, groupId, 'id'));
  }
}

@QueryHandler(GroupsList)
export class GroupsListHandler implements IQueryHandler<GroupsList, ListPage<ApiGroup>> {
  constructor(private readonly reader: AudienceReader) {}

  async execute({ walletId, limit, startingAfter }: GroupsList): Promise<ListPage<ApiGroup>> {
    const docs = await this.reader.newestFirst<GroupDoc>(GROUPS, walletId, limit + 1, startingAfter, 'group');
    return page(docs.map(toApiGroup), limit);
  }
}

@QueryHandler(TemplateById)
export class TemplateByIdHandler implements IQueryHandler<TemplateById, ApiTemplate> {
  constructor(private readonly store: AudienceStore) {}

  async execute({ walletId, templateId }: TemplateById): Promise<ApiTemplate> {
    if (!isIdOf('tpl', templateId)) throw templateMissing('id');
    const { state } = await this.store.template(templateId);
    if (!templateIsLiveIn(state, walletId)) throw templateMissing('id');
    return toApiTemplate(templateDoc(state));
  }
}

@QueryHandler(TemplatesList)
export class TemplatesListHandler implements IQueryHandler<TemplatesList, ListPage<ApiTemplate>> {
  constructor(private readonly reader: AudienceReader) {}

  async execute({ walletId, limit, startingAfter }: TemplatesList): Promise<ListPage<ApiTemplate>> {
    const docs = await this.reader.newestFirst<TemplateDoc>(
      TEMPLATES,
      walletId,
      limit + 1,
      startingAfter,
      'template',
    );
    return page(docs.map(toApiTemplate), limit);
  }
}

@QueryHandler(ContactImportById)
export class ContactImportByIdHandler implements IQueryHandler<ContactImportById, ApiContactImport> {
  constructor(private readonly store: AudienceStore) {}

  async execute({ walletId, importId }: ContactImportById): Promise<ApiContactImport> {
    if (!isIdOf('imp', importId)) throw importMissing('id');
    const { state } = await this.store.contactImport(importId);
    if (state.importId === null || state.walletId !== walletId) throw importMissing('id');
    return toApiContactImport(state);
  }
}

@QueryHandler(RecentContactImports)
export class RecentContactImportsHandler implements IQueryHandler<RecentContactImports, ApiContactImport[]> {
  constructor(
    private readonly store: AudienceStore,
    private readonly reader: AudienceReader,
  ) {}

  async execute({ walletId, limit }: RecentContactImports): Promise<ApiContactImport[]> {
    await this.reader.caughtUp();
    const docs = await this.reader.list<ImportDoc>(CONTACT_IMPORTS, {
      partition: walletId,
      order: 'desc',
      limit,
    });
    const states = await Promise.all(docs.map((doc) => this.store.contactImport(doc.id)));
    return states.map(({ state }) => toApiContactImport(state));
  }
}

@QueryHandler(AudiencePage)
export class AudiencePageHandler implements IQueryHandler<AudiencePage> {
  constructor(private readonly reader: AudienceReader) {}

  async execute({ walletId, audience, afterNumber, limit, catchUp, optOuts }: AudiencePage) {
    if (catchUp) await this.reader.caughtUp();
    for (const [index, groupId] of (audience.groups ?? []).entries())
      await this.reader.liveGroup(walletId, groupId, `audience.groups[${index}]`);
    for (const [index, contactId] of (audience.contacts ?? []).entries()) {
      const doc = await this.reader.get<ContactDoc>(CONTACTS, contactId);
      if (!doc || doc.walletId !== walletId) throw contactMissing(`audience.contacts[${index}]`);
    }
    return this.reader.audiencePage(walletId, audience, afterNumber, limit, optOuts);
  }
}
