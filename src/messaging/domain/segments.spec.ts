import fc from 'fast-check';
import { encodeBody, isGsm7, MAX_SEGMENTS, SEGMENT_LIMITS, splitIntoParts } from './segments';

const gsm = (n: number) => 'a'.repeat(n);
const ucs = (n: number) => 'ж'.repeat(n);
const EMOJI = '😀'; // two UTF-16 code units

describe('encodeBody', () => {
  it('has a ten-segment maximum', () => expect(MAX_SEGMENTS).toBe(10));

  it.each([
    ['GSM-7', 1, 1],
    ['GSM-7', 160, 1],
    ['GSM-7', 161, 2],
    ['GSM-7', 306, 2],
    ['GSM-7', 307, 3],
    ['GSM-7', 1530, 10],
    ['GSM-7', 1531, 11],
    ['UCS-2', 70, 1],
    ['UCS-2', 71, 2],
    ['UCS-2', 134, 2],
    ['UCS-2', 135, 3],
    ['UCS-2', 670, 10],
    ['UCS-2', 671, 11],
  ] as const)('counts %s: %i characters are %i segments', (encoding, length, segments) => {
    const text = encoding === 'GSM-7' ? gsm(length) : ucs(length);
    expect(encodeBody(text)).toEqual({ encoding, segments, units: length });
  });

  it('counts each extension character as two septets', () => {
    expect(encodeBody('^{}\\[~]|€\f')).toEqual({ encoding: 'GSM-7', segments: 1, units: 20 });
    expect(encodeBody('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(encodeBody('€'.repeat(80) + 'a')).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
    expect(encodeBody(gsm(159) + '€')).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
  });

  it('keeps the basic GSM-7 table (accents, Greek, newlines) at one septet', () => {
    const text = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà';
    expect(isGsm7(text)).toBe(true);
    expect(encodeBody(text).units).toBe([...text].length);
  });

  it('falls back to UCS-2 for anything outside GSM-7', () => {
    for (const ch of ['ç', 'ê', '`', '\u001b', 'ж', EMOJI, '’'])
      expect(encodeBody(`hi ${ch}`).encoding).toBe('UCS-2');
  });

  it('counts an emoji as two UTF-16 code units', () => {
    expect(encodeBody(EMOJI)).toEqual({ encoding: 'UCS-2', segments: 1, units: 2 });
    expect(encodeBody(EMOJI.repeat(35))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(encodeBody(EMOJI.repeat(36))).toEqual({ encoding: 'UCS-2', segments: 2, units: 72 });
  });

  it('moves an escape pair that would straddle a part boundary into the next part', () => {
    // 152 + 2 does not fit 153: part 1 holds 152 septets, € opens part 2.
    const text = gsm(152) + '€' + gsm(152);
    expect(splitIntoParts(text, 'GSM-7')).toEqual([gsm(152), '€' + gsm(151), 'a']);
    expect(encodeBody(text)).toEqual({ encoding: 'GSM-7', segments: 3, units: 306 });
  });

  it('moves a surrogate pair that would straddle a part boundary into the next part', () => {
    const text = ucs(66) + EMOJI + ucs(66);
    expect(splitIntoParts(text, 'UCS-2')).toEqual([ucs(66), EMOJI + ucs(65), 'ж']);
    expect(encodeBody(text).segments).toBe(3);
  });
});

describe('splitIntoParts', () => {
  it('sends a single-segment message as one part', () => {
    expect(splitIntoParts(gsm(160), 'GSM-7')).toEqual([gsm(160)]);
    expect(splitIntoParts('', 'GSM-7')).toEqual(['']);
  });

  it('fills multipart GSM-7 parts with 153 septets', () => {
    expect(splitIntoParts(gsm(400), 'GSM-7').map((p) => p.length)).toEqual([153, 153, 94]);
  });

  it('refuses GSM-7 for text GSM-7 cannot carry', () => {
    expect(() => splitIntoParts('ж', 'GSM-7')).toThrow(/GSM-7/);
  });
});

const units = (part: string, encoding: 'GSM-7' | 'UCS-2') =>
  encoding === 'UCS-2'
    ? part.length
    : [...part].reduce((n, ch) => n + ('^{}\\[~]|€\f'.includes(ch) ? 2 : 1), 0);

describe('segments and parts agree (property)', () => {
  const char = fc.oneof(
    fc.constantFrom('a', 'Z', '0', ' ', '\n', 'é', 'Δ', '€', '^', '{', '\\', '|', '\f'),
    fc.constantFrom('ж', '😀', '’', '中'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  );
  const text = fc.oneof(
    fc.array(char, { maxLength: 700 }).map((cs) => cs.join('')),
    fc.array(fc.constantFrom('a', '€', 'é'), { maxLength: 1600 }).map((cs) => cs.join('')),
  );

  it('joins back to the original, fits every part, and has one part per segment', () => {
    fc.assert(
      fc.property(text, (message) => {
        const { encoding, segments, units: total } = encodeBody(message);
        const parts = splitIntoParts(message, encoding);
        const { single, perPart } = SEGMENT_LIMITS[encoding];
        expect(parts.join('')).toBe(message);
        expect(parts).toHaveLength(segments);
        expect(parts.reduce((n, p) => n + units(p, encoding), 0)).toBe(total);
        if (segments === 1) expect(total).toBeLessThanOrEqual(single);
        else {
          expect(total).toBeGreaterThan(single);
          for (const p of parts) {
            expect(units(p, encoding)).toBeLessThanOrEqual(perPart);
            expect(p.length).toBeGreaterThan(0);
          }
          // A part never ends in the middle of a surrogate pair.
          for (let i = 1; i < parts.length; i++) {
            expect(/[\uD800-\uDBFF]$/.test(parts[i - 1]) && /^[\uDC00-\uDFFF]/.test(parts[i])).toBe(false);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
