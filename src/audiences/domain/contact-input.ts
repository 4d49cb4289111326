import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import { validatePhoneNumber } from '../../messaging/domain/phone-number';
import type { ContactFields } from './audience.events';

/** API.md: up to 20 fields, named `[a-z][a-z0-9_]{0,31}`, with text values up to 200 characters. */
export const MAX_FIELDS = 20;
export const MAX_FIELD_VALUE = 200;
export const MAX_NAME = 100;
export const FIELD_NAME = /^[a-z][a-z0-9_]{0,31}$/;
/** Placeholders of their own in templates ({{name}}, {{phone_number}}), so never a field's name. */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set(['name', 'phone_number']);

/** Characters as a person counts them (an emoji is one). */
const characters = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** The number a contact holds: E.164 and a valid (for Ghana, mobile) number, as a send checks `to`. */
export function contactPhoneNumber(value: unknown, param = 'phone_number'): Result<string, DomainError> {
  const text = typeof value === 'string' ? value.trim() : '';
  const checked = validatePhoneNumber(text);
  if (checked.ok) return checked;
  // The send's words name `to`; here the field is the contact's.
  return err(invalid('invalid_phone_number', checked.error.message.replace(/^to\b/, param), param));
}

/** A contact's name: trimmed, empty is none, at most 100 characters. */
export function contactName(value: unknown, param = 'name'): Result<string | null, DomainError> {
  if (value === null || value === undefined) return ok(null);
  if (typeof value !== 'string') return err(invalid('invalid_name', `${param} must be a string`, param));
  const name = value.trim().replace(/\s+/g, ' ');
  if (characters(name) > MAX_NAME)
    return err(invalid('invalid_name', `${param} must be at most ${MAX_NAME} characters`, param));
  return ok(name === '' ? null : name);
}

export function fieldNameRefusal(name: string, param: string): DomainError | null {
  if (!FIELD_NAME.test(name))
    return invalid(
      'invalid_field_name',
      `${param}: a field name is a lower-case letter, then up to 31 lower-case letters, digits or underscores`,
      param,
    );
  if (RESERVED_FIELDS.has(name))
    return invalid('invalid_field_name', `${param}: "${name}" is the contact's own, not a field`, param);
  return null;
}

export function fieldValueRefusal(value: unknown, param: string): DomainError | null {
  if (typeof value !== 'string') return invalid('invalid_field_value', `${param} must be a string`, param);
  if (characters(value) > MAX_FIELD_VALUE)
    return invalid('invalid_field_value', `${param} must be at most ${MAX_FIELD_VALUE} characters`, param);
  return null;
}

export const tooManyFields = (param = 'fields') =>
  invalid('too_many_fields', `A contact has at most ${MAX_FIELDS} fields`, param);

/**
 * Fields as given by the API: an object of names to text. With `removable`, a null value asks
 * for the field's removal (a PATCH), answered as null in the result.
 */
export function fieldChanges(
  value: unknown,
  options: { removable: boolean },
): Result<Readonly<Record<string, string | null>>, DomainError> {
  if (value === undefined || value === null) return ok({});
  if (typeof value !== 'object' || Array.isArray(value))
    return err(invalid('invalid_fields', 'fields must be an object of names to text values', 'fields'));
  const out: Record<string, string | null> = {};
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const param = `fields.${name}`;
    const nameRefusal = fieldNameRefusal(name, param);
    if (nameRefusal) return err(nameRefusal);
    if (raw === null && options.removable) {
      out[name] = null;
      continue;
    }
    const valueRefusal = fieldValueRefusal(raw, param);
    if (valueRefusal) return err(valueRefusal);
    out[name] = raw as string;
  }
  if (!options.removable && Object.keys(out).length > MAX_FIELDS) return err(tooManyFields());
  return ok(out);
}

/** The fields after the changes (a null removes, an empty text is kept as given), at most 20. */
export function mergeFields(
  current: ContactFields,
  changes: Readonly<Record<string, string | null>>,
): Result<ContactFields, DomainError> {
  const merged: Record<string, string> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  if (Object.keys(merged).length > MAX_FIELDS) return err(tooManyFields());
  return ok(sortedFields(merged));
}

/** Fields in name order, so equal contents compare (and are stored) equal. */
export function sortedFields(fields: Readonly<Record<string, string>>): ContactFields {
  const out: Record<string, string> = {};
  for (const name of Object.keys(fields).sort()) out[name] = fields[name];
  return out;
}

export function sameFields(a: ContactFields, b: ContactFields): boolean {
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(b, k) && a[k] === b[k]);
}
