/**
 * SMS alphabets as SMPP carries them. GSM 03.38 default alphabet unpacked (data_coding 0):
 * one byte per septet, extension characters as 0x1B followed by their code; the SMSC packs
 * septets for the air interface. UCS-2 (data_coding 8) as UTF-16 big-endian.
 */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

const EXTENSION: Readonly<Record<string, number>> = {
  '\f': 0x0a,
  '^': 0x14,
  '{': 0x28,
  '}': 0x29,
  '\\': 0x2f,
  '[': 0x3c,
  '~': 0x3d,
  ']': 0x3e,
  '|': 0x40,
  '€': 0x65,
};

export const GSM7_ESCAPE = 0x1b;

const basicCodes = new Map<string, number>();
for (let code = 0; code < BASIC.length; code++) {
  if (code !== GSM7_ESCAPE) basicCodes.set(BASIC[code], code);
}
const extensionChars = new Map<number, string>(Object.entries(EXTENSION).map(([char, code]) => [code, char]));

export class Gsm7EncodingError extends Error {
  constructor(readonly character: string) {
    super(
      `Character U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} is not in the GSM 03.38 alphabet`,
    );
    this.name = 'Gsm7EncodingError';
  }
}

/** Septets one character takes: 1 (basic), 2 (extension table) or 0 (not encodable). */
export function gsm7Septets(char: string): 0 | 1 | 2 {
  if (basicCodes.has(char)) return 1;
  if (char in EXTENSION) return 2;
  return 0;
}

export function isGsm7(text: string): boolean {
  for (const char of text) if (gsm7Septets(char) === 0) return false;
  return true;
}

/** Septets the whole text takes. */
export function gsm7Length(text: string): number {
  let length = 0;
  for (const char of text) length += gsm7Septets(char);
  return length;
}

/** Encodes text as unpacked septets; throws Gsm7EncodingError for a character outside the alphabet. */
export function encodeGsm7(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const basic = basicCodes.get(char);
    if (basic !== undefined) {
      bytes.push(basic);
      continue;
    }
    const extension = EXTENSION[char];
    if (extension === undefined) throw new Gsm7EncodingError(char);
    bytes.push(GSM7_ESCAPE, extension);
  }
  return Buffer.from(bytes);
}

/** Decodes unpacked septets (used by the simulator and tests). Unknown escapes decode as a space. */
export function decodeGsm7(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] & 0x7f;
    if (byte === GSM7_ESCAPE && i + 1 < bytes.length) {
      text += extensionChars.get(bytes[++i] & 0x7f) ?? ' ';
    } else {
      text += BASIC[byte];
    }
  }
  return text;
}

/** UCS-2 as SMPP carries it with data_coding 8: UTF-16 big-endian (surrogate pairs kept as two units). */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

export function decodeUcs2(bytes: Uint8Array): string {
  return Buffer.from(bytes).swap16().toString('utf16le');
}
