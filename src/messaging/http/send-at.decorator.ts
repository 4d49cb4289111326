import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/**
 * The optional `send_at` of a send body (single or batch): text on the wire, else
 * `parameter_invalid`. What it must mean (RFC 3339 with a zone, after now, at most 30 days ahead)
 * is the domain's validateSendAt, which answers `invalid_send_at`.
 */
export function SendAtField() {
  return applyDecorators(
    ApiPropertyOptional({
      example: '2026-12-01T09:30:00Z',
      description:
        'Schedule the send: an RFC 3339 date-time with its zone, after now and at most 30 days ahead. ' +
        'The message is SCHEDULED with its credits reserved, sent at that time, and can be canceled until then; ' +
        'its validity counts from send_at.',
    }),
    IsOptional(),
    IsString({ message: 'send_at must be a string' }),
  );
}
