import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';
import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { ImportColumns, ImportRowError } from './audience.events';
import {
  contactName,
  contactPhoneNumber,
  fieldNameRefusal,
  fieldValueRefusal,
  MAX_FIELDS,
} from './contact-input';

/**
 * What a CSV import file means (API.md, Audiences): a header row naming a `phone_number` column
 * (also spelled `phone` or `to`), an optional `name`, and fields for every other column; each
 * row is then one contact's number, name and fields, or an error by line. Pure.
 */
export const MAX_IMPORT_ROWS = 200_000;
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

const PHONE_COLUMNS = ['phone_number', 'phone', 'to'];

/** A header cell as a field name: "First Name" is first_name, "Class (2026)" class_2026. */
export function columnName(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Reads the header row, or refuses the whole file (a `400` before anything is recorded). */
export function importColumns(header: readonly string[]): Result<ImportColumns, DomainError> {
  const names = header.map(columnName);
  const phone = PHONE_COLUMNS.map((name) => names.indexOf(name)).find((index) => index >= 0);
  if (phone === undefined)
    return err(
      invalid(
        'missing_phone_column',
        'The header row must name a phone_number column (or phone, or to)',
        'file',
      ),
    );
  const nameIndex = names.indexOf('name');
  const fields: (readonly [number, string])[] = [];
  const seen = new Set<string>();
  for (const [index, name] of names.entries()) {
    if (index === phone || index === nameIndex || header[index].trim() === '') continue;
    const refusal = fieldNameRefusal(name, `header column ${index + 1} ("${header[index].trim()}")`);
    if (refusal) return err(invalid('invalid_field_name', refusal.message, 'file'));
    if (seen.has(name))
      return err(invalid('duplicate_column', `The header names the column ${name} twice`, 'file'));
    seen.add(name);
    fields.push([index, name]);
  }
  if (fields.length > MAX_FIELDS)
    return err(
      invalid(
        'too_many_fields',
        `The file has ${fields.length} field columns; a contact has at most ${MAX_FIELDS} fields`,
        'file',
      ),
    );
  return ok({ phone, name: nameIndex >= 0 ? nameIndex : null, fields, width: header.length });
}

/** `default_country` of an import: an ISO 3166 code libphonenumber knows (GH), or none. */
export function defaultCountry(value: unknown): Result<CountryCode | null, DomainError> {
  if (value === undefined || value === null || value === '') return ok(null);
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!isSupportedCountry(code))
    return err(
      invalid(
        'invalid_country',
        'default_country must be a two-letter country code such as GH',
        'default_country',
      ),
    );
  return ok(code as CountryCode);
}

/** One row as a contact's data: only non-empty cells say anything (an empty one keeps what the contact has). */
export interface ImportRow {
  readonly line: number;
  readonly phoneNumber: string;
  readonly name: string | null;
  readonly fields: Readonly<Record<string, string>>;
}

const rowError = (line: number, code: string, message: string): ImportRowError => ({ line, code, message });

/**
 * A number as written in a sheet (spaces, dashes, a national 0), in E.164 when it can be read.
 * The usual national form (0 and the national number, as in Ghana) is rewritten directly, and the
 * result still goes through the contact's validation; anything else gets libphonenumber's full
 * parse, which costs a visible share of a 100,000-row import when done for every row.
 */
export function importedNumber(cell: string, country: CountryCode | null): string {
  const compact = cell.replace(/[\s\-().]/g, '');
  if (compact.startsWith('+') || !country) return compact;
  if (compact.startsWith('00')) return `+${compact.slice(2)}`;
  if (country === 'GH' && /^0\d{9}$/.test(compact))
    return `+${getCountryCallingCode(country)}${compact.slice(1)}`;
  const parsed = parsePhoneNumberFromString(compact, country);
  return parsed?.number ?? compact;
}

export function importRow(
  line: number,
  cells: readonly string[],
  columns: ImportColumns,
  country: CountryCode | null,
): { ok: true; row: ImportRow } | { ok: false; error: ImportRowError } {
  if (cells.length !== columns.width)
    return {
      ok: false,
      error: rowError(
        line,
        'invalid_row',
        `Expected ${columns.width} columns as in the header, found ${cells.length}`,
      ),
    };
  const raw = cells[columns.phone].trim();
  if (raw === '')
    return { ok: false, error: rowError(line, 'missing_phone_number', 'The phone number is empty') };
  const phone = contactPhoneNumber(importedNumber(raw, country));
  if (!phone.ok) {
    const hint = country ? '' : ' (a local number needs default_country, such as GH)';
    return {
      ok: false,
      error: rowError(line, 'invalid_phone_number', `${raw} is not a valid phone number${hint}`),
    };
  }
  const name = columns.name === null ? ok(null) : contactName(cells[columns.name], 'name');
  if (!name.ok) return { ok: false, error: rowError(line, name.error.code, name.error.message) };
  const fields: Record<string, string> = {};
  for (const [index, field] of columns.fields) {
    const value = cells[index].trim();
    if (value === '') continue;
    const refusal = fieldValueRefusal(value, field);
    if (refusal) return { ok: false, error: rowError(line, refusal.code, refusal.message) };
    fields[field] = value;
  }
  return { ok: true, row: { line, phoneNumber: phone.value, name: name.value, fields } };
}
