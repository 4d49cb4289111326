import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { Encoding } from '../ports/carrier.port';
import { validatePhoneNumber } from './phone-number';
import { resolveRoute, Route } from './routing';
import { encodeBody, MAX_SEGMENTS } from './segments';
import { parseSenderId } from './sender-id';

export const MESSAGE_TYPES = ['transactional', 'promotional'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** A send body as it arrived: nothing about it is trusted yet. */
export interface SendInput {
  readonly to: unknown;
  readonly sender_id: unknown;
  readonly message: unknown;
  readonly type: unknown;
}

export interface ValidSend {
  readonly to: string;
  readonly senderId: string;
  readonly message: string;
  readonly type: MessageType;
  readonly carrier: string;
  readonly encoding: Encoding;
  readonly segments: number;
  /** Always equal to `segments` (API.md). */
  readonly credits: number;
}

/** Present (not undefined or null) and a string, else `parameter_missing` / `parameter_invalid`. */
function stringParam(value: unknown, param: string): Result<string, DomainError> {
  if (value === undefined || value === null)
    return err(invalid('parameter_missing', `${param} is required`, param));
  if (typeof value !== 'string') return err(invalid('parameter_invalid', `${param} must be a string`, param));
  return ok(value);
}

const isMessageType = (value: string): value is MessageType =>
  (MESSAGE_TYPES as readonly string[]).includes(value);

/**
 * Checks a send body field by field, in API.md's order (to, sender_id, message, type), and
 * answers the first refusal. For `to`: shape, then validity, then route.
 */
export function validateSendInput(
  input: SendInput,
  routes: readonly Route[],
): Result<ValidSend, DomainError> {
  const toParam = stringParam(input.to, 'to');
  if (!toParam.ok) return toParam;
  const to = validatePhoneNumber(toParam.value);
  if (!to.ok) return to;
  const route = resolveRoute(to.value, routes);
  if (!route.ok) return route;

  const senderParam = stringParam(input.sender_id, 'sender_id');
  if (!senderParam.ok) return senderParam;
  const sender = parseSenderId(senderParam.value);
  if (!sender.ok) return sender;

  const message = stringParam(input.message, 'message');
  if (!message.ok) return message;
  if (message.value.length === 0)
    return err(invalid('invalid_message', 'message must not be empty', 'message'));
  const body = encodeBody(message.value);
  if (body.segments > MAX_SEGMENTS) {
    return err(
      invalid(
        'message_too_long',
        `message is ${body.segments} segments (${body.encoding}); at most ${MAX_SEGMENTS} are allowed`,
        'message',
      ),
    );
  }

  const type = stringParam(input.type, 'type');
  if (!type.ok) return type;
  if (!isMessageType(type.value)) {
    return err(invalid('invalid_type', 'type must be transactional or promotional', 'type'));
  }

  return ok({
    to: to.value,
    senderId: sender.value.value,
    message: message.value,
    type: type.value,
    carrier: route.value.carrier,
    encoding: body.encoding,
    segments: body.segments,
    credits: body.segments,
  });
}
