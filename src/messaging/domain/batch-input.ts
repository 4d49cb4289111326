import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import {
  SendInput,
  ValidSend,
  validateMessageField,
  validateSendAt,
  validateSendInput,
  validateSenderIdField,
  validateTypeField,
} from './message-input';
import type { Route } from './routing';

/** API.md: a batch holds 1 to 1,000 messages. */
export const MAX_BATCH_MESSAGES = 1000;

/** A batch body as it arrived: its list already known to be an array of 1 to 1,000 entries. */
export interface BatchInput {
  readonly sender_id: unknown;
  readonly type: unknown;
  /** Used by every item that has no message of its own. */
  readonly message?: unknown;
  /** When every item is to be sent (scheduled); now when absent. */
  readonly send_at?: unknown;
  readonly messages: readonly unknown[];
}

/** Each item's verdict, in the batch's order: a send to make, or the refusal a single send would get. */
export type BatchItemCheck = Result<ValidSend, DomainError>;

const present = (value: unknown) => value !== undefined && value !== null;

/** The same refusal, naming the field where it sits in the batch (`messages[3].to`). */
const at = (error: DomainError, param: string) =>
  new DomainError(error.kind, error.code, error.message, param);

/** An item's refusal as a single send would word it, its `param` naming where it sits (`messages[3].to`). */
export function atItem(error: DomainError, index: number): DomainError {
  const where = `messages[${index}]`;
  return at(error, error.param ? `${where}.${error.param}` : where);
}

/**
 * Checks a batch: what its items share (sender_id, type, the top-level message when given)
 * refuses the whole batch, as a single send's body would be refused; then each item exactly as a
 * single send with those shared fields, its refusal's `param` naming the item's field.
 */
export function validateBatchInput(
  input: BatchInput,
  routes: readonly Route[],
  now: Date,
): Result<BatchItemCheck[], DomainError> {
  const shared = validateBatchShared(input, now);
  if (!shared.ok) return shared;
  return ok(input.messages.map((_, index) => validateBatchItem(input, index, routes, shared.value)));
}

/** What a batch's items share, checked once: the batch's refusal, or when its items are due (null: now). */
export function validateBatchShared(input: BatchInput, now: Date): Result<string | null, DomainError> {
  const sender = validateSenderIdField(input.sender_id);
  if (!sender.ok) return sender;
  const type = validateTypeField(input.type);
  if (!type.ok) return type;
  if (present(input.message)) {
    const shared = validateMessageField(input.message);
    if (!shared.ok) return shared;
  }
  return validateSendAt(input.send_at, now);
}

/** The batch's item at `index`, checked as a single send with the shared fields (validateBatchShared's). */
export function validateBatchItem(
  input: BatchInput,
  index: number,
  routes: readonly Route[],
  sendAt: string | null,
): BatchItemCheck {
  const checked = validateItem(input, input.messages[index], index, routes);
  return checked.ok && sendAt !== null ? ok({ ...checked.value, sendAt }) : checked;
}

function validateItem(
  batch: BatchInput,
  item: unknown,
  index: number,
  routes: readonly Route[],
): BatchItemCheck {
  const where = `messages[${index}]`;
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return err(invalid('parameter_invalid', `${where} must be an object with to (and message)`, where));
  }
  const { to, message } = item as { to?: unknown; message?: unknown };
  const send: SendInput = {
    to,
    sender_id: batch.sender_id,
    message: present(message) ? message : batch.message,
    type: batch.type,
  };
  const valid = validateSendInput(send, routes);
  return valid.ok ? valid : err(atItem(valid.error, index));
}
