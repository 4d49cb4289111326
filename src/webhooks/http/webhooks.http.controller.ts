import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentActor, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import type { Actor } from '../../shared/actor';
import { ApiErrors } from '../../shared/http/api-errors.decorator';
import { CreateWebhookEndpoint } from '../application/commands/create-webhook-endpoint.command';
import { DeleteWebhookEndpoint } from '../application/commands/delete-webhook-endpoint.command';
import { WebhookEndpointById } from '../application/queries/webhook-endpoint-by-id.query';
import { WebhookEndpointsList } from '../application/queries/webhook-endpoints-list.query';
import { WebhookEventsPage } from '../application/queries/webhook-events-page.query';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointDto,
  DeletedWebhookEndpointResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEventListResponse,
  WebhookEventsQueryDto,
} from './webhook-endpoint.dto';

@ApiTags('webhooks')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/webhook_endpoints')
export class WebhookEndpointsHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(200)
  // The answer holds the whsec_ secret: no cache or proxy along the way may keep a copy.
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary:
      'Register a URL for webhook events (message.scheduled, message.canceled, message.sent, message.delivered, message.failed, message.expired, message.received, checkout.succeeded); the signing secret is shown only in this answer',
  })
  @ApiOkResponse({ type: CreatedWebhookEndpointResponse })
  @ApiErrors({ 400: ['invalid_url', 'invalid_event_type', 'too_many_endpoints'] }, { body: true })
  create(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Body() body: CreateWebhookEndpointDto,
  ) {
    return this.commands.execute(new CreateWebhookEndpoint(principal, body.url, body.events, actor));
  }

  @Get()
  @ApiOperation({ summary: "The wallet's webhook endpoints, oldest first (without secrets)" })
  @ApiOkResponse({ type: WebhookEndpointListResponse })
  @ApiErrors()
  list(@CurrentPrincipal() principal: Principal) {
    return this.queries.execute(new WebhookEndpointsList(principal.walletId));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint (without its secret)' })
  @ApiOkResponse({ type: WebhookEndpointResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.queries.execute(new WebhookEndpointById(principal.walletId, id));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a webhook endpoint: nothing more is delivered to it' })
  @ApiOkResponse({ type: DeletedWebhookEndpointResponse })
  @ApiErrors({ 404: ['resource_missing'] })
  remove(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string) {
    return this.commands.execute(new DeleteWebhookEndpoint(principal.walletId, id, actor));
  }
}

@ApiTags('webhooks')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/events')
export class WebhookEventsHttpController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: "The wallet's webhook events, oldest first: the same objects the endpoints receive",
  })
  @ApiOkResponse({ type: WebhookEventListResponse })
  @ApiErrors({ 400: ['invalid_limit', 'parameter_invalid (after)'], 404: ['resource_missing (after)'] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: WebhookEventsQueryDto) {
    return this.queries.execute(new WebhookEventsPage(principal.walletId, query.limit ?? 100, query.after));
  }
}
