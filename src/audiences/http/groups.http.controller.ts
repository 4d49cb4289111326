import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import {
  AddGroupContacts,
  CreateGroup,
  DeleteGroup,
  RemoveGroupContact,
} from '../application/commands/group.commands';
import { GroupById, GroupsList } from '../application/queries/audience.queries';
import {
  AddGroupContactsDto,
  CreateGroupDto,
  CursorQueryDto,
  DeletedResponse,
  GroupListResponse,
  GroupResponse,
} from './audiences.dto';

export const GROUP_CONTACTS_BODY_LIMIT_BYTES = 40 * 1024;

@ApiTags('audiences')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/groups')
export class GroupsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a group of contacts' })
  @ApiOkResponse({ type: GroupResponse })
  @ApiErrors({ 400: ['invalid_name'] }, { body: true })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateGroupDto) {
    return this.commands.execute(new CreateGroup(principal.walletId, body.name));
  }

  @Get()
  @ApiOperation({ summary: "The environment's groups, newest first, each with its number of contacts" })
  @ApiOkResponse({ type: GroupListResponse })
  @ApiErrors({ 400: ['invalid_limit'], 404: ['resource_missing (starting_after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: CursorQueryDto) {
    return this.queries.execute(new GroupsList(principal.walletId, query.limit ?? 20, query.starting_after));
  }

  @Get(':id')
  @ApiOperation({ summary: 'A group and its number of contacts (list them with GET /v1/contacts?group=)' })
  @ApiOkResponse({ type: GroupResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new GroupById(principal.walletId, id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a group; its contacts stay' })
  @ApiOkResponse({ type: DeletedResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.commands.execute(new DeleteGroup(principal.walletId, id));
  }

  /** 1,000 ids of 26 characters do not fit in 16 KiB: this route takes up to 40 KiB. */
  @Post(':id/contacts')
  @HttpCode(200)
  @RouteConfig({ bodyLimit: GROUP_CONTACTS_BODY_LIMIT_BYTES })
  @ApiOperation({ summary: 'Put up to 1,000 contacts in the group (all or none: an unknown one is 404)' })
  @ApiOkResponse({ type: GroupResponse })
  @ApiErrors(
    {
      400: ['invalid_contacts'],
      404: ['resource_missing (id, contacts[i])'],
      413: ['body_too_large (over 40 KiB)'],
    },
    { body: true },
  )
  addContacts(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: AddGroupContactsDto,
  ) {
    return this.commands.execute(new AddGroupContacts(principal.walletId, id, body.contacts));
  }

  @Delete(':id/contacts/:contact_id')
  @ApiOperation({
    summary: 'Take a contact out of the group (the contact stays); one not in it changes nothing',
  })
  @ApiOkResponse({ type: GroupResponse })
  @ApiErrors({ 404: ['resource_missing (id, contact_id)'] })
  removeContact(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('contact_id') contactId: string,
  ) {
    return this.commands.execute(new RemoveGroupContact(principal.walletId, id, contactId));
  }
}
