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

  const sender = validateSenderIdField(input.sender_id);
  if (!sender.ok) return sender;

  const body = validateMessageField(input.message);
  if (!body.ok) return body;

  const type = validateTypeField(input.type);
  if (!type.ok) return type;

  return ok({
    to: to.value,
    senderId: sender.value,
    message: body.value.message,
    type: type.value,
    carrier: route.value.carrier,
    encoding: body.value.encoding,
    segments: body.value.segments,
    credits: body.value.segments,
  });
}

/** `sender_id`: present, a string, and a valid sender id. */
export function validateSenderIdField(value: unknown): Result<string, DomainError> {
  const senderParam = stringParam(value, 'sender_id');
  if (!senderParam.ok) return senderParam;
  const sender = parseSenderId(senderParam.value);
  return sender.ok ? ok(sender.value.value) : sender;
}

/** `message`: present, a non-empty string of at most MAX_SEGMENTS segments. */
export function validateMessageField(
  value: unknown,
): Result<{ message: string; encoding: Encoding; segments: number }, DomainError> {
  const message = stringParam(value, 'message');
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
  return ok({ message: message.value, encoding: body.encoding, segments: body.segments });
}

/** `type`: present and one of MESSAGE_TYPES. */
export function validateTypeField(value: unknown): Result<MessageType, DomainError> {
  const type = stringParam(value, 'type');
  if (!type.ok) return type;
  if (!isMessageType(type.value)) {
    return err(invalid('invalid_type', 'type must be transactional or promotional', 'type'));
  }
  return ok(type.value);
}
