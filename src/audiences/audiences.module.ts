import { Module } from '@nestjs/common';
import { ProjectionsService } from '../shared/projections/projections.service';
import { AudienceReader } from './application/audience-reader';
import { AudienceStore } from './application/audience-store';
import {
  CreateContactHandler,
  DeleteContactHandler,
  UpdateContactHandler,
} from './application/commands/contact.handlers';
import {
  AddGroupContactsHandler,
  CreateGroupHandler,
  DeleteGroupHandler,
  RemoveGroupContactHandler,
} from './application/commands/group.handlers';
import { StartContactImportHandler } from './application/commands/start-contact-import.handler';
import { CreateTemplateHandler, DeleteTemplateHandler } from './application/commands/template.handlers';
import { ContactImportWorker } from './application/contact-import.worker';
import {
  AudiencePageHandler,
  ContactByIdHandler,
  ContactImportByIdHandler,
  ContactsPageHandler,
  GroupByIdHandler,
  GroupsListHandler,
  RecentContactImportsHandler,
  TemplateByIdHandler,
  TemplatesListHandler,
} from './application/queries/audience.handlers';
import { AUDIENCES_OPTIONS, loadAudiencesOptions } from './audiences.options';
import { ContactImportsHttpController } from './http/contact-imports.http.controller';
import { ContactsHttpController } from './http/contacts.http.controller';
import { GroupsHttpController } from './http/groups.http.controller';
import { TemplatesHttpController } from './http/templates.http.controller';
import { audiencesProjection } from './projections/audiences.projection';

/**
 * Audiences (API.md): a wallet's contacts (one per number), groups, CSV imports and message
 * templates, which campaigns send to. Opt-outs stay compliance's: a contact shows its number's
 * and changes it through compliance's commands.
 */
@Module({
  controllers: [
    ContactsHttpController,
    GroupsHttpController,
    ContactImportsHttpController,
    TemplatesHttpController,
  ],
  providers: [
    { provide: AUDIENCES_OPTIONS, useFactory: () => loadAudiencesOptions() },
    AudienceStore,
    AudienceReader,
    ContactImportWorker,
    CreateContactHandler,
    UpdateContactHandler,
    DeleteContactHandler,
    CreateGroupHandler,
    DeleteGroupHandler,
    AddGroupContactsHandler,
    RemoveGroupContactHandler,
    StartContactImportHandler,
    CreateTemplateHandler,
    DeleteTemplateHandler,
    ContactByIdHandler,
    ContactsPageHandler,
    GroupByIdHandler,
    GroupsListHandler,
    TemplateByIdHandler,
    TemplatesListHandler,
    ContactImportByIdHandler,
    RecentContactImportsHandler,
    AudiencePageHandler,
  ],
})
export class AudiencesModule {
  constructor(projections: ProjectionsService) {
    projections.register(audiencesProjection);
  }
}
