import type { Encoding } from '../ports/carrier.port';

/** A message is at most this many segments (API.md, Limits). */
export const MAX_SEGMENTS = 10;

/** Units per SMS: GSM-7 counts septets, UCS-2 counts UTF-16 code units. */
export const SEGMENT_LIMITS: Readonly<
  Record<Encoding, { readonly single: number; readonly perPart: number }>
> = {
  'GSM-7': { single: 160, perPart: 153 },
  'UCS-2': { single: 70, perPart: 67 },
};

/** GSM 03.38 basic table (one septet each); ESC (0x1B) is deliberately left out. */
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅå' +
    '\u0394_\u03A6\u0393\u039B\u03A9\u03A0\u03A8\u03A3\u0398\u039EÆæßÉ' +
    ' !"#¤%&\'()*+,-./0123456789:;<=>?' +
    '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§' +
    '¿abcdefghijklmnopqrstuvwxyzäöñüà',
);

/** GSM 03.38 extension table: sent as ESC + char, so two septets each. */
const GSM7_EXTENSION = new Set('\f^{}\\[~]|€');

export const isGsm7 = (text: string): boolean => {
  for (const ch of text) if (!GSM7_BASIC.has(ch) && !GSM7_EXTENSION.has(ch)) return false;
  return true;
};

/** Units one character (a code point, as `for…of` yields them) takes in this encoding. */
function widthOf(ch: string, encoding: Encoding): number {
  if (encoding === 'UCS-2') return ch.length; // 2 for a surrogate pair, else 1
  if (GSM7_BASIC.has(ch)) return 1;
  if (GSM7_EXTENSION.has(ch)) return 2;
  throw new Error(`U+${ch.codePointAt(0)?.toString(16)} has no GSM-7 encoding`);
}

function split(message: string, encoding: Encoding): { parts: string[]; units: number } {
  const { single, perPart } = SEGMENT_LIMITS[encoding];
  let units = 0;
  for (const ch of message) units += widthOf(ch, encoding);
  if (units <= single) return { parts: [message], units };
  // Greedy fill: a character that does not fit whole (an ESC pair, a surrogate pair) opens the next part.
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const ch of message) {
    const width = widthOf(ch, encoding);
    if (used + width > perPart) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += ch;
    used += width;
  }
  parts.push(current);
  return { parts, units };
}

/**
 * The concatenated parts a message is sent as, exactly as `encodeBody` counts them. Never splits
 * a GSM-7 escape pair or a UTF-16 surrogate pair. An empty message is one empty part.
 * Throws when `encoding` is GSM-7 and the text has a character GSM-7 cannot carry.
 */
export const splitIntoParts = (message: string, encoding: Encoding): string[] =>
  split(message, encoding).parts;

/** Encoding, segment count (= credits) and units (septets or UTF-16 code units) of a body. */
export function encodeBody(message: string): { encoding: Encoding; segments: number; units: number } {
  const encoding: Encoding = isGsm7(message) ? 'GSM-7' : 'UCS-2';
  const { parts, units } = split(message, encoding);
  return { encoding, segments: parts.length, units };
}
