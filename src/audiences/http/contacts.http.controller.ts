import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { CreateContact, DeleteContact, UpdateContact } from '../application/commands/contact.commands';
import { ContactById, ContactsPage } from '../application/queries/audience.queries';
import {
  ContactListResponse,
  ContactResponse,
  ContactsQueryDto,
  CreateContactDto,
  DeletedResponse,
  UpdateContactDto,
} from './audiences.dto';

const FIELD_ERRORS = ['invalid_field_name', 'invalid_field_value', 'too_many_fields', 'invalid_name'];

@ApiTags('audiences')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/contacts')
export class ContactsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Add a contact: its number is unique in the environment' })
  @ApiOkResponse({ type: ContactResponse })
  @ApiErrors(
    {
      400: ['invalid_phone_number', ...FIELD_ERRORS],
      404: ['resource_missing (groups[i])'],
      409: ['contact_exists'],
    },
    { body: true },
  )
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateContactDto) {
    return this.commands.execute(new CreateContact(principal.walletId, body));
  }

  @Get()
  @ApiOperation({
    summary:
      "The environment's contacts, newest first; with search, those whose name starts with it (name order) or whose number starts with it (number order); with group, that group's only (in number order)",
  })
  @ApiOkResponse({ type: ContactListResponse })
  @ApiErrors({ 400: ['invalid_limit'], 404: ['resource_missing (group, starting_after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ContactsQueryDto) {
    return this.queries.execute(
      new ContactsPage({
        walletId: principal.walletId,
        groupId: query.group || undefined,
        search: query.search,
        limit: query.limit ?? 20,
        startingAfter: query.starting_after,
      }),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'A contact, with its opt-out (from the opt-out list)' })
  @ApiOkResponse({ type: ContactResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new ContactById(principal.walletId, id));
  }

  @Patch(':id')
  @ApiOperation({
    summary:
      'Change a contact: only the fields given (fields merged, null removes one; groups replaces the list; opted_out changes the opt-out list)',
  })
  @ApiOkResponse({ type: ContactResponse })
  @ApiErrors(
    { 400: ['invalid_phone_number', ...FIELD_ERRORS], 404: ['resource_missing'], 409: ['contact_exists'] },
    { body: true },
  )
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateContactDto) {
    return this.commands.execute(new UpdateContact(principal.walletId, id, body, 'api'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a contact (its messages and its number’s opt-out stay)' })
  @ApiOkResponse({ type: DeletedResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.commands.execute(new DeleteContact(principal.walletId, id));
  }
}
