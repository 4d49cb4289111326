import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { Encoding } from '../ports/carrier.port';
import { validatePhoneNumber } from './phone-number';
import { resolveRoute, Route } from './routing';
import { encodeBody, MAX_SEGMENTS } from './segments';
import { parseSenderId } from './sender-id';

export const MESSAGE_TYPES = ['transactional', 'promotional'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** What `type` may be, as a refusal says it: "transactional or promotional". */
export const MESSAGE_TYPE_CHOICES = MESSAGE_TYPES.join(' or ');

/** A send body as it arrived: nothing about it is trusted yet. */
export interface SendInput {
  readonly to: unknown;
  readonly sender_id: unknown;
  readonly message: unknown;
  readonly type: unknown;
  /** Optional: schedule the send (validateSendAt). */
  readonly send_at?: unknown;
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
  /** When a scheduled send is due (ISO-8601 UTC); absent for a send queued at once. */
  readonly sendAt?: string;
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

/** `type`: present and one of MESSAGE_TYPES; a refusal lists them. */
export function validateTypeField(value: unknown): Result<MessageType, DomainError> {
  if (value === undefined || value === null)
    return err(invalid('parameter_missing', `type is required: ${MESSAGE_TYPE_CHOICES}`, 'type'));
  if (typeof value !== 'string' || !isMessageType(value))
    return err(
      invalid(
        typeof value === 'string' ? 'invalid_type' : 'parameter_invalid',
        `type must be ${MESSAGE_TYPE_CHOICES}`,
        'type',
      ),
    );
  return ok(value);
}

/** How far ahead a send may be scheduled (API.md: at most 30 days). */
export const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;

// RFC 3339 date-time: a full date, `T`, a full time with optional fraction, and a zone (Z or ±hh:mm).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** The instant an RFC 3339 date-time names (epoch ms), or null when it is not one or names no real time. */
export function parseRfc3339(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const [offsetHours, offsetMinutes] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const wallClock = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wallClock);
  // Date.UTC rolls 2026-02-30 over to March: a day or month out of range names no real date.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return null;
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  const sign = m[8].startsWith('-') ? -1 : 1;
  const offsetMs = m[9] === undefined ? 0 : sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return wallClock + fraction - offsetMs;
}

/**
 * `send_at` (API.md): absent (or null) for a send now; else an RFC 3339 date-time with its zone,
 * strictly after `now` and at most 30 days ahead. Answers it as an ISO-8601 UTC string.
 */
export function validateSendAt(value: unknown, now: Date): Result<string | null, DomainError> {
  if (value === undefined || value === null) return ok(null);
  if (typeof value !== 'string')
    return err(invalid('parameter_invalid', 'send_at must be a string', 'send_at'));
  const at = parseRfc3339(value);
  if (at === null) {
    return err(
      invalid(
        'invalid_send_at',
        'send_at must be an RFC 3339 date-time with a time zone, such as 2026-12-01T09:30:00Z',
        'send_at',
      ),
    );
  }
  if (at <= now.getTime()) return err(invalid('invalid_send_at', 'send_at must be in the future', 'send_at'));
  if (at > now.getTime() + MAX_SCHEDULE_AHEAD_MS)
    return err(invalid('invalid_send_at', 'send_at must be at most 30 days ahead', 'send_at'));
  return ok(new Date(at).toISOString());
}

/** A whole send body: validateSendInput's fields, then `send_at` against `now`. */
export function validateSend(
  input: SendInput,
  routes: readonly Route[],
  now: Date,
): Result<ValidSend, DomainError> {
  const valid = validateSendInput(input, routes);
  if (!valid.ok || input.send_at === undefined) return valid; // the usual send: nothing more to check
  const sendAt = validateSendAt(input.send_at, now);
  if (!sendAt.ok) return sendAt;
  return sendAt.value === null ? valid : ok({ ...valid.value, sendAt: sendAt.value });
}
