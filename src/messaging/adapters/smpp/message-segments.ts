import type { Encoding } from '../../ports/carrier.port';
import { gsm7Septets } from './sms-encoding';

/**
 * Splits a body into the parts sent as separate submit_sm PDUs, by the same rules the credits
 * are counted with (API.md): GSM-7 fits 160 septets in one part, else 153 per part, extension
 * characters count 2 and are never split across parts; UCS-2 fits 70 UTF-16 units in one part,
 * else 67 per part, never splitting a surrogate pair.
 *
 * The messaging domain owns the canonical splitter (src/messaging/domain/segments.ts); this
 * copy keeps the adapter self-contained and has the same signature, so the import can be
 * swapped for it.
 */
export const GSM7_SINGLE = 160;
export const GSM7_PART = 153;
export const UCS2_SINGLE = 70;
export const UCS2_PART = 67;

export function splitIntoParts(text: string, encoding: Encoding): string[] {
  return encoding === 'GSM-7' ? splitGsm7(text) : splitUcs2(text);
}

function splitGsm7(text: string): string[] {
  const chars = Array.from(text);
  const total = chars.reduce((sum, char) => sum + Math.max(1, gsm7Septets(char)), 0);
  if (total <= GSM7_SINGLE) return [text];
  return pack(chars, GSM7_PART, (char) => Math.max(1, gsm7Septets(char)));
}

function splitUcs2(text: string): string[] {
  if (text.length <= UCS2_SINGLE) return [text];
  // Array.from iterates code points, so a surrogate pair stays one unit of 2.
  return pack(Array.from(text), UCS2_PART, (char) => char.length);
}

function pack(chars: readonly string[], capacity: number, size: (char: string) => number): string[] {
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of chars) {
    const cost = size(char);
    if (used + cost > capacity) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += cost;
  }
  if (current !== '' || parts.length === 0) parts.push(current);
  return parts;
}
