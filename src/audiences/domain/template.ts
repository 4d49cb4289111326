import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { ContactFields } from './audience.events';

/**
 * Message templates (API.md, Audiences): `{{name}}`, `{{phone_number}}` and `{{<field>}}`, each
 * with an optional fallback after a bar (`{{first_name|Customer}}`; `{{first_name|}}` falls back
 * to nothing). Any other brace is `400 invalid_template`. Pure and small, so the console's live
 * preview runs this very code in the browser, and campaigns render every recipient with it.
 */
export const MAX_TEMPLATE_MESSAGE = 1600;
export const MAX_FALLBACK = 200;

export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly key: string; readonly fallback: string | null };

export interface ParsedTemplate {
  readonly text: string;
  readonly parts: readonly TemplatePart[];
}

/** What a template is rendered for: a contact as the audience holds it. */
export interface TemplateContact {
  readonly phoneNumber: string;
  readonly name: string | null;
  readonly fields: ContactFields;
}

export interface Rendered {
  readonly text: string;
  /** Placeholders that had no value and no fallback (in order, once each): a campaign skips the contact. */
  readonly missing: readonly string[];
}

const KEY = /^[a-z][a-z0-9_]{0,31}$/;
const PLACEHOLDER_HELP =
  'use {{name}}, {{phone_number}} or {{field_name}} (lower-case), with an optional fallback as in {{first_name|Customer}}';

const refusal = (param: string, what: string) =>
  invalid('invalid_template', `${param}: ${what}; ${PLACEHOLDER_HELP}`, param);

/** Reads a template's text into literal text and placeholders, or says which brace is wrong. */
export function parseTemplate(value: unknown, param = 'message'): Result<ParsedTemplate, DomainError> {
  if (typeof value !== 'string' || value.trim() === '')
    return err(invalid('invalid_message', `${param} is required`, param));
  if ([...value].length > MAX_TEMPLATE_MESSAGE)
    return err(
      invalid('message_too_long', `${param} must be at most ${MAX_TEMPLATE_MESSAGE} characters`, param),
    );
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < value.length) {
    const c = value[i];
    if (c === '}') return err(refusal(param, `a "}" at character ${i + 1} closes nothing`));
    if (c !== '{') {
      literal += c;
      i++;
      continue;
    }
    if (value[i + 1] !== '{') return err(refusal(param, `a single "{" at character ${i + 1}`));
    const end = value.indexOf('}}', i + 2);
    if (end < 0) return err(refusal(param, `the "{{" at character ${i + 1} is never closed`));
    const inner = value.slice(i + 2, end);
    const placeholder = placeholderOf(inner);
    if (!placeholder) return err(refusal(param, `"{{${inner}}}" is not a placeholder`));
    if (literal) parts.push({ kind: 'text', text: literal });
    literal = '';
    parts.push(placeholder);
    i = end + 2;
  }
  if (literal) parts.push({ kind: 'text', text: literal });
  return ok({ text: value, parts });
}

function placeholderOf(inner: string): TemplatePart | null {
  if (inner.includes('{') || inner.includes('}')) return null;
  const bar = inner.indexOf('|');
  const key = (bar < 0 ? inner : inner.slice(0, bar)).trim();
  if (!KEY.test(key)) return null;
  if (bar < 0) return { kind: 'placeholder', key, fallback: null };
  const fallback = inner.slice(bar + 1).trim();
  if ([...fallback].length > MAX_FALLBACK) return null;
  return { kind: 'placeholder', key, fallback };
}

/** The distinct placeholder keys, in order of first appearance (the template's `placeholders`). */
export function placeholdersOf(template: ParsedTemplate): string[] {
  const keys: string[] = [];
  for (const part of template.parts)
    if (part.kind === 'placeholder' && !keys.includes(part.key)) keys.push(part.key);
  return keys;
}

/** The value a contact gives a placeholder; empty counts as none. */
export function valueOf(contact: TemplateContact, key: string): string | null {
  const value =
    key === 'name' ? contact.name : key === 'phone_number' ? contact.phoneNumber : contact.fields[key];
  return value === undefined || value === null || value === '' ? null : value;
}

/** The message for one contact; placeholders without a value take their fallback, or are `missing`. */
export function renderTemplate(template: ParsedTemplate, contact: TemplateContact): Rendered {
  let text = '';
  const missing: string[] = [];
  for (const part of template.parts) {
    if (part.kind === 'text') {
      text += part.text;
      continue;
    }
    const value = valueOf(contact, part.key) ?? part.fallback;
    if (value === null) {
      if (!missing.includes(part.key)) missing.push(part.key);
      continue;
    }
    text += value;
  }
  return { text, missing };
}

/** True when the template uses no placeholder at all: every recipient gets the same text. */
export const isPlainText = (template: ParsedTemplate): boolean =>
  template.parts.every((part) => part.kind === 'text');
