/**
 * How contacts are searched (API.md: by name or number prefix), as index keys: pure, so the read
 * model writes exactly the keys the search later looks for.
 *
 * A name is found by the start of any of its words ("kofi", "mens" and "kofi m" all find "Kofi
 * Mensah"), case and accents aside; a number by its start, written in E.164 or, for Ghana, with
 * its national 0 ("024" finds +23324…).
 */

/** Keys are compared as text by the stores; \u0001 sorts before every character a name keeps. */
export const KEY_SEPARATOR = '\u0001';
/** A name's keys: the whole name and each later word's rest of it, at most this many. */
const MAX_NAME_KEYS = 6;

/** Lower case, accents and marks dropped, one space between words, no control characters. */
export function normaliseName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\p{C}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** "Kofi Mensah" → ["kofi mensah", "mensah"]: what a search by name may start with. */
export function nameKeys(name: string | null): string[] {
  if (!name) return [];
  const words = normaliseName(name).split(' ').filter(Boolean);
  const keys: string[] = [];
  for (let i = 0; i < words.length && keys.length < MAX_NAME_KEYS; i++) {
    const key = words.slice(i).join(' ');
    if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}

export type ContactSearch =
  { readonly by: 'number'; readonly prefix: string } | { readonly by: 'name'; readonly prefix: string };

/** The `search` of a contact list: digits (with +, spaces or dashes) search numbers, anything else names. */
export function contactSearch(text: string): ContactSearch | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/^\+?[\d\s\-().]+$/.test(trimmed)) {
    const digits = trimmed.replace(/\D/g, '');
    if (digits === '') return null;
    if (trimmed.startsWith('+')) return { by: 'number', prefix: `+${digits}` };
    if (digits.startsWith('0')) return { by: 'number', prefix: `+233${digits.slice(1)}` };
    return { by: 'number', prefix: `+${digits}` };
  }
  const prefix = normaliseName(trimmed);
  return prefix === '' ? null : { by: 'name', prefix };
}

/** The key a contact is listed under for a name search: its first name key with this prefix. */
export function nameMatch(name: string | null, prefix: string): string | null {
  const keys = nameKeys(name)
    .filter((key) => key.startsWith(prefix))
    .sort();
  return keys[0] ?? null;
}
