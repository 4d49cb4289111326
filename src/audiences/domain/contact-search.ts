/**
 * How contacts are searched (API.md: by name or number prefix), as index keys: pure, so the read
 * model writes exactly the keys the search later looks for.
 *
 * A name is found by its start ("kof", "kofi m" find "Kofi Mensah"), case, accents and extra
 * spaces aside; a number by its start, written in E.164 or, for Ghana, with its national 0 ("024"
 * finds +23324…). One key per name keeps an import of 100,000 contacts to a few index writes each
 * (docs/performance.md, scenario 10); a search by any word of the name would cost one per word.
 */

/** Keys are compared as text by the stores; \u0001 sorts before every character a name keeps. */
export const KEY_SEPARATOR = '\u0001';

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

/** The key a name is found by: "Kofi  Mensah" is "kofi mensah"; none for no name. */
export function nameKey(name: string | null): string | null {
  const key = name ? normaliseName(name) : '';
  return key === '' ? null : key;
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
