import { Body, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import {
  CreateContact,
  DeleteContact,
  UpdateContact,
} from '../../audiences/application/commands/contact.commands';
import { StartContactImport } from '../../audiences/application/commands/start-contact-import.command';
import {
  ContactById,
  ContactImportById,
  ContactsPage,
  GroupsList,
  RecentContactImports,
} from '../../audiences/application/queries/audience.queries';
import { MAX_IMPORT_BYTES } from '../../audiences/domain/import-rows';
import { invalid } from '../../shared/domain-error';
import { signedIn } from './console-auth';
import { ContactForm, ContactImportForm, ContactsPageQuery, OnceForm } from './console-audiences.forms';
import { ConsoleRequest, field, rawField } from './console-http';
import { ConsolePage, ConsolePages, FormRefusal, Requires } from './console-page';
import { UPLOAD_PROBLEM_FIELD } from './multipart-form';

const PAGE_SIZE = 50;
/** Every group a form may offer (an account with more uses the API). */
const GROUPS_SHOWN = 100;
const IMPORT_REFRESH_SECONDS = 2;
/** A file read from a form is handed to the import in pieces, as the API's body arrives. */
const PIECE = 64 * 1024;

/** "class=JSS 2" per line: a contact's fields as the forms show and take them. */
export function fieldsFromText(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    if (at <= 0)
      throw invalid(
        'invalid_fields',
        `Fields, line ${index + 1}: write each field as name=value, such as class=JSS 2`,
        'fields',
      );
    fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return fields;
}

export const fieldsAsText = (fields: Readonly<Record<string, string>>) =>
  Object.entries(fields)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');

async function* pieces(text: string): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += PIECE) yield text.slice(at, at + PIECE);
}

const checkedGroups = (body: unknown): string[] => {
  const value = (body as Record<string, unknown> | null)?.groups;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/**
 * Contacts: the list (search by name or number, filter by group), adding and editing a contact
 * (its opt-out is the opt-out list's, changed through it), deleting one, and CSV imports with
 * their progress and errors by line. The API's use cases, through the same buses.
 */
@ConsolePages()
export class ConsoleContactsController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('contacts')
  async contacts(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: ContactsPageQuery,
  ) {
    await this.renderList(request, reply, query, {});
  }

  @Post('contacts')
  @Requires('send')
  async add(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: ContactForm) {
    const { walletId } = signedIn(request);
    const form = {
      phone_number: field(body, 'phone_number'),
      name: field(body, 'name'),
      fields: rawField(body, 'fields'),
      group: field(body, 'group'),
    };
    await this.page.submit(request, reply, body, {
      once: 'add-contact',
      act: async () => {
        const created = await this.commands.execute(
          new CreateContact(walletId, {
            phone_number: form.phone_number,
            name: form.name,
            fields: fieldsFromText(form.fields),
            ...(form.group ? { groups: [form.group] } : {}),
          }),
        );
        return `/console/contacts/${encodeURIComponent(created.id)}`;
      },
      refused: (refusal) =>
        this.renderList(request, reply, {}, { addError: refusal, addForm: form }, refusal.status),
      shows: ['invalid_request', 'conflict', 'not_found'],
    });
  }

  /** The upload (multipart, up to 20 MiB): the file becomes an import, whose page shows its progress. */
  @Post('contacts/import')
  @Requires('send')
  @RouteConfig({ bodyLimit: MAX_IMPORT_BYTES + 64 * 1024, uploadBytes: MAX_IMPORT_BYTES })
  async import(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: ContactImportForm) {
    const { walletId } = signedIn(request);
    const form = { group: field(body, 'group'), default_country: field(body, 'default_country') };
    const problem = rawField(body, UPLOAD_PROBLEM_FIELD);
    await this.page.submit(request, reply, body, {
      once: 'import-contacts',
      act: async () => {
        if (problem === 'too_large')
          throw invalid(
            'body_too_large',
            `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it into several imports.`,
            'file',
          );
        if (problem)
          throw invalid('invalid_file', 'The upload could not be read. Choose the file again.', 'file');
        const started = await this.commands.execute(
          new StartContactImport(walletId, pieces(rawField(body, 'file')), {
            group: form.group || undefined,
            defaultCountry: form.default_country || undefined,
          }),
        );
        return `/console/contact-imports/${encodeURIComponent(started.id)}`;
      },
      refused: (refusal) =>
        this.renderList(request, reply, {}, { importError: refusal, importForm: form }, refusal.status),
      shows: ['invalid_request', 'not_found', 'payload_too_large'],
    });
  }

  @Get('contact-imports/:id')
  async importPage(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    const { walletId } = signedIn(request);
    const progress = await this.page.found(
      () => this.queries.execute(new ContactImportById(walletId, id)),
      'import',
    );
    const processing = progress.status === 'processing';
    await this.page.render(request, reply, 'contact-import', {
      title: `Import ${progress.id}`,
      nav: 'contacts',
      progress,
      refreshSeconds: processing ? IMPORT_REFRESH_SECONDS : null,
    });
  }

  @Get('contacts/:id')
  async contact(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    await this.renderContact(request, reply, id, {});
  }

  @Post('contacts/:id')
  @Requires('send')
  async edit(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: ContactForm,
  ) {
    const { walletId } = signedIn(request);
    const form = {
      phone_number: field(body, 'phone_number'),
      name: field(body, 'name'),
      fields: rawField(body, 'fields'),
      groups: checkedGroups(body),
      opted_out: field(body, 'opted_out') === 'on',
    };
    await this.page.submit(request, reply, body, {
      once: `edit-contact-${id}`,
      act: async () => {
        const current = await this.queries.execute(new ContactById(walletId, id));
        const fields: Record<string, string | null> = fieldsFromText(form.fields);
        for (const name of Object.keys(current.fields)) if (!(name in fields)) fields[name] = null;
        await this.commands.execute(
          new UpdateContact(
            walletId,
            id,
            {
              phone_number: form.phone_number,
              name: form.name || null,
              fields,
              groups: form.groups,
              opted_out: form.opted_out,
            },
            'console',
          ),
        );
        this.page.putFlash(request, 'contact-saved', true);
        return `/console/contacts/${encodeURIComponent(id)}`;
      },
      refused: (refusal) => this.renderContact(request, reply, id, { error: refusal, form }, refusal.status),
      shows: ['invalid_request', 'conflict'],
    });
  }

  @Post('contacts/:id/delete')
  @Requires('send')
  async remove(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ) {
    const { walletId } = signedIn(request);
    await this.page.submit(request, reply, body, {
      once: `delete-contact-${id}`,
      act: async () => {
        await this.commands.execute(new DeleteContact(walletId, id));
        return '/console/contacts';
      },
    });
  }

  private async renderList(
    request: ConsoleRequest,
    reply: FastifyReply,
    query: ContactsPageQuery,
    problems: {
      addError?: FormRefusal;
      addForm?: Record<string, string>;
      importError?: FormRefusal;
      importForm?: Record<string, string>;
    },
    status = 200,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const search = query.search?.trim() ?? '';
    const groupId = query.group || undefined;
    const [contacts, groups, imports] = await Promise.all([
      this.page.found(
        () =>
          this.queries.execute(
            new ContactsPage({
              walletId,
              groupId,
              search,
              limit: PAGE_SIZE,
              startingAfter: query.after || undefined,
            }),
          ),
        'group',
      ),
      this.queries.execute(new GroupsList(walletId, GROUPS_SHOWN)),
      this.queries.execute(new RecentContactImports(walletId, 5)),
    ]);
    const last = contacts.data[contacts.data.length - 1];
    const params = (after: string) =>
      new URLSearchParams({
        ...(search ? { search } : {}),
        ...(groupId ? { group: groupId } : {}),
        after,
      }).toString();
    await this.page.render(
      request,
      reply,
      'contacts',
      {
        title: 'Contacts',
        nav: 'contacts',
        contacts: contacts.data,
        groups: groups.data,
        group: groups.data.find((g) => g.id === groupId) ?? null,
        search,
        nextHref: contacts.has_more && last ? `/console/contacts?${params(last.id)}` : null,
        imports,
        addError: problems.addError ?? null,
        addForm: problems.addForm ?? { phone_number: '', name: '', fields: '', group: groupId ?? '' },
        importError: problems.importError ?? null,
        importForm: problems.importForm ?? { group: groupId ?? '', default_country: 'GH' },
      },
      status,
    );
  }

  private async renderContact(
    request: ConsoleRequest,
    reply: FastifyReply,
    id: string,
    problems: {
      error?: FormRefusal;
      form?: { phone_number: string; name: string; fields: string; groups: string[]; opted_out: boolean };
    },
    status = 200,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const [contact, groups] = await Promise.all([
      this.page.found(() => this.queries.execute(new ContactById(walletId, id)), 'contact'),
      this.queries.execute(new GroupsList(walletId, GROUPS_SHOWN)),
    ]);
    await this.page.render(
      request,
      reply,
      'contact',
      {
        title: contact.name ?? contact.phone_number,
        nav: 'contacts',
        contact,
        groups: groups.data,
        saved: this.page.takeFlash<boolean>(request, 'contact-saved') ?? false,
        error: problems.error ?? null,
        form: problems.form ?? {
          phone_number: contact.phone_number,
          name: contact.name ?? '',
          fields: fieldsAsText(contact.fields),
          groups: contact.groups,
          opted_out: contact.opted_out,
        },
      },
      status,
    );
  }
}
