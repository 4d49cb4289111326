import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { CancelInvitation } from '../../accounts/application/commands/cancel-invitation.command';
import { ChangeMemberRole } from '../../accounts/application/commands/change-member-role.command';
import { InviteMember } from '../../accounts/application/commands/invite-member.command';
import { RemoveMember } from '../../accounts/application/commands/remove-member.command';
import { TransferOwnership } from '../../accounts/application/commands/transfer-ownership.command';
import { AccountMembers } from '../../accounts/application/queries/account-members.query';
import { GRANTABLE_ROLES } from '../../accounts/domain/members';
import { ChooseAccount } from '../application/commands/choose-account.command';
import { signedIn } from './console-auth';
import { AccountForm, InviteMemberForm, MemberRoleForm, OnceForm } from './console-forms.dto';
import { ConsoleRequest, field, redirect } from './console-http';
import { ConsolePage, ConsolePages, FormRefusal, Requires } from './console-page';

const MEMBERS = '/console/members';
const INVITED_SLOT = 'invited';

/** The Members page (API.md, "Teams"): who belongs to the account with which role, and who is invited. */
@ConsolePages()
export class ConsoleMembersController {
  constructor(
    private readonly page: ConsolePage,
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('members')
  async members(@Req() request: ConsoleRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.render(request, reply, { invited: this.page.takeFlash<string>(request, INVITED_SLOT) });
  }

  @Post('members/invite')
  @Requires('manage_members')
  async invite(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: InviteMemberForm) {
    const { account, actor } = signedIn(request);
    const email = field(body, 'email');
    const role = field(body, 'role');
    await this.page.submit(request, reply, body, {
      once: 'invite-member',
      act: async () => {
        const invitation = await this.commands.execute(new InviteMember(account.id, email, role, actor));
        this.page.putFlash(request, INVITED_SLOT, invitation.email);
        return MEMBERS;
      },
      refused: (refusal) => this.render(request, reply, { refusal, input: { email, role } }),
      shows: ['invalid_request', 'conflict', 'forbidden'],
    });
  }

  @Post('members/invitations/:id/cancel')
  @Requires('manage_members')
  async cancelInvitation(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ) {
    const { account, actor } = signedIn(request);
    await this.act(request, reply, body, () => new CancelInvitation(account.id, id, actor));
  }

  @Post('members/:id/role')
  @Requires('manage_members')
  async changeRole(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: MemberRoleForm,
  ) {
    const { account, actor } = signedIn(request);
    await this.act(
      request,
      reply,
      body,
      () => new ChangeMemberRole(account.id, id, field(body, 'role'), actor),
    );
  }

  @Post('members/:id/remove')
  @Requires('manage_members')
  async remove(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ) {
    const { account, actor } = signedIn(request);
    await this.act(request, reply, body, () => new RemoveMember(account.id, id, actor));
  }

  @Post('members/:id/owner')
  @Requires('own')
  async transferOwnership(
    @Req() request: ConsoleRequest,
    @Res() reply: FastifyReply,
    @Param('id') id: string,
    @Body() body: OnceForm,
  ) {
    const { account, actor } = signedIn(request);
    await this.act(request, reply, body, () => new TransferOwnership(account.id, id, actor));
  }

  /** The header's account switcher: any account the signed-in person belongs to. */
  @Post('account')
  @Requires('read')
  async chooseAccount(@Req() request: ConsoleRequest, @Res() reply: FastifyReply, @Body() body: AccountForm) {
    const { session } = signedIn(request);
    await this.page.found(
      () => this.commands.execute(new ChooseAccount(session, field(body, 'account'))),
      'account',
    );
    redirect(reply, '/console');
  }

  private act(
    request: ConsoleRequest,
    reply: FastifyReply,
    body: unknown,
    command: () => CancelInvitation | ChangeMemberRole | RemoveMember | TransferOwnership,
  ): Promise<void> {
    return this.page.submit(request, reply, body, {
      act: async () => {
        await this.commands.execute(command());
        return MEMBERS;
      },
      refused: (refusal) => this.render(request, reply, { refusal }),
      shows: ['invalid_request', 'conflict', 'forbidden'],
    });
  }

  private async render(
    request: ConsoleRequest,
    reply: FastifyReply,
    extra: { refusal?: FormRefusal; input?: { email: string; role: string }; invited?: string | null },
  ): Promise<void> {
    const { account, session } = signedIn(request);
    const team = await this.queries.execute(new AccountMembers(account.id));
    await this.page.render(
      request,
      reply,
      'members',
      {
        title: 'Members',
        nav: 'members',
        members: team.members,
        invitations: team.invitations,
        me: session.memberId,
        roles: GRANTABLE_ROLES,
        input: extra.input ?? { email: '', role: 'viewer' },
        invited: extra.invited ?? null,
        error: extra.refusal?.message ?? null,
      },
      extra.refusal?.status,
    );
  }
}
