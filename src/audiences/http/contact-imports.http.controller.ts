import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { CsvSource, StartContactImport } from '../application/commands/start-contact-import.command';
import { ContactImportById } from '../application/queries/audience.queries';
import { MAX_IMPORT_BYTES } from '../domain/import-rows';
import { ContactImportQueryDto, ContactImportResponse } from './audiences.dto';

/** The request's body as streamedBodies hands it (the unread stream), or nothing. */
function bodyStream(request: FastifyRequest): CsvSource {
  const body = request.body as unknown;
  if (body instanceof Readable) return body;
  return (async function* () {})();
}

@ApiTags('audiences')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/contact_imports')
export class ContactImportsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /**
   * The one API route that takes something else than JSON: its CSV body is read as it arrives,
   * after the key is checked (the guard runs first), and never held whole.
   */
  @Post()
  @HttpCode(202)
  @RouteConfig({ bodyLimit: MAX_IMPORT_BYTES, contentTypes: ['text/csv'] })
  @ApiOperation({
    summary:
      'Import contacts from a CSV file (Content-Type: text/csv, up to 20 MiB and 200,000 rows) in the background: a header row with phone_number (or phone, or to), optional name, and fields; contacts are upserted by number',
  })
  @ApiConsumes('text/csv')
  @ApiBody({
    schema: { type: 'string', example: 'phone_number,name,class\n0241234567,Ama Mensah,JSS 2\n' },
  })
  @ApiResponse({ status: 202, type: ContactImportResponse, description: 'The import, processing' })
  @ApiErrors(
    {
      400: [
        'invalid_file',
        'missing_phone_column',
        'invalid_field_name',
        'duplicate_column',
        'too_many_fields',
        'too_many_rows',
        'invalid_country',
      ],
      404: ['resource_missing (group)'],
      413: ['body_too_large (over 20 MiB)'],
      415: ['unsupported_media_type (not text/csv)'],
    },
    { body: true },
  )
  start(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ContactImportQueryDto,
    @Req() request: FastifyRequest,
  ) {
    const declared = Number(request.headers['content-length']);
    return this.commands.execute(
      new StartContactImport(
        principal.walletId,
        bodyStream(request),
        { group: query.group, defaultCountry: query.default_country },
        Number.isFinite(declared) ? declared : undefined,
      ),
    );
  }

  @Get(':id')
  @ApiOperation({
    summary: 'An import: status, progress, created and updated counts, and the first 100 errors by line',
  })
  @ApiOkResponse({ type: ContactImportResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new ContactImportById(principal.walletId, id));
  }
}
