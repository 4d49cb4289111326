import { Body, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { CreateGroup, DeleteGroup } from '../../audiences/application/commands/group.commands';
import { CreateTemplate, DeleteTemplate } from '../../audiences/application/commands/template.commands';
import type { ApiContact } from '../../audiences/application/audience-views';
import {
  ContactsPage,
  GroupsList,
  TemplatesList,
} from '../../audiences/application/queries/audience.queries';
import { parseTemplate, renderTemplate } from '../../audiences/domain/template';
import { signedIn } from './console-auth';
import { GroupForm, OnceForm, TemplateForm, TemplatesPageQuery } from './console-audiences.forms';
import { ConsoleRequest, field, rawField } from './console-http';
import { ConsolePage, ConsolePages, FormRefusal, Requires } from './console-page';

const GROUPS_SHOWN = 100;
const TEMPLATES_SHOWN = 100;
/** Contacts offered for a template's preview (a search narrows them). */
const PREVIEW_CONTACTS = 50;

/** What the preview needs of a contact, for the page's script too (as JSON in the option). */
const previewContact = (c: ApiContact) => ({ phoneNumber: c.phone_number, name: c.name, fields: c.fields });

/** A message rendered for one contact, as the preview shows it (the server's first render). */
function preview(message: string, contact: ApiContact | undefined) {
  const parsed = parseTemplate(message);
  if (!parsed.ok)
    return {
      text: '',
      missing: [] as readonly string[],
      error: message.trim() ? parsed.error.message : null,
    };
  const sample = contact ? previewContact(contact) : { phoneNumber: '+233241234567', name: null, fields: {} };
  return { ...renderTemplate(parsed.value, sample), error: null };
}

/**
 * Groups (with their counts) and Templates (with a live preview for a chosen contact: the
 * rendered text, its segments and credits, by the very code campaigns render and count with).
 */
@ConsolePages()
export class ConsoleAudiencesController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('groups')
  async groups(@Req() request: ConsoleRequest, @Res() reply: FastifyReply) {
    await this.renderGroups(request, reply, {});
  }

  @Post('groups')
  @Requires('send')
  async addGroup(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: GroupForm) {
    const { walletId } = signedIn(request);
    const name = field(body, 'name');
    await this.page.submit(request, reply, body, {
      once: 'add-group',
      act: async () => {
        await this.commands.execute(new CreateGroup(walletId, name));
        return '/console/groups';
      },
      refused: (refusal) => this.renderGroups(request, reply, { error: refusal, name }, refusal.status),
    });
  }

  @Post('groups/:id/delete')
  @Requires('send')
  async deleteGroup(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ) {
    const { walletId } = signedIn(request);
    await this.page.submit(request, reply, body, {
      once: `delete-group-${id}`,
      act: async () => {
        await this.commands.execute(new DeleteGroup(walletId, id));
        return '/console/groups';
      },
    });
  }

  @Get('templates')
  async templates(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Query() query: TemplatesPageQuery,
  ) {
    await this.renderTemplates(request, reply, query, {});
  }

  @Post('templates')
  @Requires('send')
  async addTemplate(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: TemplateForm) {
    const { walletId } = signedIn(request);
    const form = {
      name: field(body, 'name'),
      message: rawField(body, 'message'),
      contact: field(body, 'contact'),
    };
    await this.page.submit(request, reply, body, {
      once: 'add-template',
      act: async () => {
        await this.commands.execute(new CreateTemplate(walletId, form.name, form.message));
        return '/console/templates';
      },
      refused: (refusal) =>
        this.renderTemplates(
          request,
          reply,
          { contact: form.contact },
          { error: refusal, form },
          refusal.status,
        ),
    });
  }

  @Post('templates/:id/delete')
  @Requires('send')
  async deleteTemplate(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ) {
    const { walletId } = signedIn(request);
    await this.page.submit(request, reply, body, {
      once: `delete-template-${id}`,
      act: async () => {
        await this.commands.execute(new DeleteTemplate(walletId, id));
        return '/console/templates';
      },
    });
  }

  private async renderGroups(
    request: ConsoleRequest,
    reply: FastifyReply,
    problems: { error?: FormRefusal; name?: string },
    status = 200,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const groups = await this.queries.execute(new GroupsList(walletId, GROUPS_SHOWN));
    await this.page.render(
      request,
      reply,
      'groups',
      {
        title: 'Groups',
        nav: 'groups',
        groups: groups.data,
        more: groups.has_more,
        error: problems.error ?? null,
        name: problems.name ?? '',
      },
      status,
    );
  }

  private async renderTemplates(
    request: ConsoleRequest,
    reply: FastifyReply,
    query: TemplatesPageQuery,
    problems: { error?: FormRefusal; form?: { name: string; message: string; contact: string } },
    status = 200,
  ): Promise<void> {
    const { walletId } = signedIn(request);
    const contactSearch = query.contact_search?.trim() ?? '';
    const [templates, contacts] = await Promise.all([
      this.queries.execute(new TemplatesList(walletId, TEMPLATES_SHOWN)),
      this.queries.execute(new ContactsPage({ walletId, search: contactSearch, limit: PREVIEW_CONTACTS })),
    ]);
    const form = problems.form ?? { name: '', message: '', contact: query.contact ?? '' };
    const chosen = contacts.data.find((c) => c.id === form.contact) ?? contacts.data[0];
    await this.page.render(
      request,
      reply,
      'templates',
      {
        title: 'Templates',
        nav: 'templates',
        templates: templates.data.map((t) => ({ ...t, preview: preview(t.message, chosen) })),
        contacts: contacts.data.map((c) => ({ ...c, previewJson: JSON.stringify(previewContact(c)) })),
        contactSearch,
        chosen: chosen ?? null,
        form,
        formPreview: preview(form.message, chosen),
        error: problems.error ?? null,
      },
      status,
    );
  }
}
