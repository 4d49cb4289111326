import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { CreateTemplate, DeleteTemplate } from '../application/commands/template.commands';
import { TemplateById, TemplatesList } from '../application/queries/audience.queries';
import {
  CreateTemplateDto,
  CursorQueryDto,
  DeletedResponse,
  TemplateListResponse,
  TemplateResponse,
} from './audiences.dto';

@ApiTags('audiences')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/templates')
export class TemplatesHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Save a message template with placeholders ({{name}}, {{phone_number}}, {{<field>|fallback}})',
  })
  @ApiOkResponse({ type: TemplateResponse })
  @ApiErrors({ 400: ['invalid_template', 'invalid_name', 'message_too_long'] }, { body: true })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateTemplateDto) {
    return this.commands.execute(new CreateTemplate(principal.walletId, body.name, body.message));
  }

  @Get()
  @ApiOperation({ summary: "The environment's templates, newest first" })
  @ApiOkResponse({ type: TemplateListResponse })
  @ApiErrors({ 400: ['invalid_limit'], 404: ['resource_missing (starting_after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: CursorQueryDto) {
    return this.queries.execute(
      new TemplatesList(principal.walletId, query.limit ?? 20, query.starting_after),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'A template' })
  @ApiOkResponse({ type: TemplateResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new TemplateById(principal.walletId, id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a template' })
  @ApiOkResponse({ type: DeletedResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.commands.execute(new DeleteTemplate(principal.walletId, id));
  }
}
