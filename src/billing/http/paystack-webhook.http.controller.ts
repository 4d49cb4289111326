import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { RawBodyRequest } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AcceptPaystackWebhook } from '../application/commands/accept-paystack-webhook.command';

/**
 * Paystack's webhook. Its body has no DTO on purpose: the signature covers the raw bytes, so the
 * payment provider adapter checks it before any field is read, and then parses the event itself.
 */
@ApiTags('billing')
@Controller('v1/billing/webhooks')
export class PaystackWebhookHttpController {
  constructor(private readonly commands: CommandBus) {}

  @Post('paystack')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  paystack(@Req() request: RawBodyRequest<FastifyRequest>) {
    const raw = request.rawBody;
    return this.commands.execute(
      new AcceptPaystackWebhook(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0), request.headers),
    );
  }
}
