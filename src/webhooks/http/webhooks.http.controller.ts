import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal, Principal } from '../../accounts/http/api-key.guard';
import { parseLimit } from '../../shared/http/pagination';
import { WebhookEndpoints } from '../application/webhook-endpoints.service';
import { WebhookEventsQuery } from '../application/webhook-events.query';

@ApiTags('webhooks')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/webhook_endpoints')
export class WebhookEndpointsHttpController {
  constructor(private readonly endpoints: WebhookEndpoints) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Register a URL for webhook events (message.sent, message.delivered, message.failed, message.expired, checkout.succeeded); the signing secret is shown only in this answer',
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: unknown) {
    return this.endpoints.create(
      { walletId: principal.walletId, accountId: principal.accountId, environment: principal.environment },
      body,
    );
  }

  @Get()
  @ApiOperation({ summary: "The wallet's webhook endpoints, oldest first (without secrets)" })
  list(@CurrentPrincipal() principal: Principal) {
    return this.endpoints.list(principal.walletId);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint (without its secret)' })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.endpoints.get(principal.walletId, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a webhook endpoint: nothing more is delivered to it' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.endpoints.delete(principal.walletId, id);
  }
}

@ApiTags('webhooks')
@ApiBearerAuth()
@UseGuards(ApiKeyGuard)
@Controller('v1/events')
export class WebhookEventsHttpController {
  constructor(private readonly events: WebhookEventsQuery) {}

  @Get()
  @ApiOperation({
    summary: "The wallet's webhook events, oldest first: the same objects the endpoints receive",
  })
  @ApiQuery({ name: 'after', required: false, description: 'Only events after this event id (evt_…)' })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 100' })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query('after') after?: string,
    @Query('limit') limit?: string,
  ) {
    return this.events.list(principal.walletId, parseLimit(limit, 100, 100), after);
  }
}
