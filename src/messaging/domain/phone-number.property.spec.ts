import fc from 'fast-check';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ghanaMobileNumberTest } from './mobile-number-pattern';
import { phoneNumberValidator, validatePhoneNumber } from './phone-number';

/** The decision the fast path replaces: libphonenumber's full parse calls it a valid mobile. */
const fullParseSaysMobile = (to: string): boolean => {
  const parsed = parsePhoneNumberFromString(to);
  if (!parsed || !parsed.isValid() || parsed.number !== to) return false;
  const type = parsed.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
};

const withFullParseOnly = phoneNumberValidator(undefined);

// Weighted towards the ranges where the answer is interesting: Ghana's mobile prefixes (with their
// unassigned neighbours such as 250-255 or 590), fixed-line 3x and 800, then anything at all.
const MOBILE_PREFIXES = [
  '20',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
  '50',
  '53',
  '54',
  '55',
  '56',
  '57',
  '59',
];
const OTHER_PREFIXES = [
  '21',
  '22',
  '30',
  '31',
  '32',
  '33',
  '34',
  '35',
  '37',
  '38',
  '39',
  '51',
  '52',
  '58',
  '80',
];
const digits = (length: number) => fc.stringMatching(new RegExp(`^[0-9]{${length}}$`));
const ghanaNationalNumber = fc.oneof(
  { arbitrary: fc.tuple(fc.constantFrom(...MOBILE_PREFIXES), digits(7)), weight: 6 },
  { arbitrary: fc.tuple(fc.constantFrom(...OTHER_PREFIXES), digits(7)), weight: 2 },
  { arbitrary: fc.tuple(fc.constant(''), digits(9)), weight: 2 },
);
const ghanaNumber = ghanaNationalNumber.map(([prefix, rest]) => `+233${prefix}${rest}`);

describe('the Ghana mobile fast path (issue 16)', () => {
  it('decides exactly as the full parse does, for random +233 and 9 digits', () => {
    const isGhanaMobile = ghanaMobileNumberTest;
    if (!isGhanaMobile) throw new Error('no Ghana mobile fast path: see mobile-number-pattern.spec.ts');
    let accepted = 0;
    fc.assert(
      fc.property(ghanaNumber, (to) => {
        const fast = isGhanaMobile(to.slice('+233'.length));
        if (fast) accepted++;
        expect(fast).toBe(fullParseSaysMobile(to));
      }),
      { numRuns: 40_000 },
    );
    // The generator must reach both answers often, or the equality above proves little.
    expect(accepted).toBeGreaterThan(10_000);
    expect(accepted).toBeLessThan(30_000);
  });

  it('gives the same result and error as the full parse alone, for Ghana and other numbers', () => {
    const anyNumber = fc.oneof(
      { arbitrary: ghanaNumber, weight: 4 },
      { arbitrary: digits(8).map((rest) => `+233${rest}`), weight: 1 },
      { arbitrary: digits(10).map((rest) => `+233${rest}`), weight: 1 },
      { arbitrary: fc.stringMatching(/^\+[0-9]{8,15}$/), weight: 2 },
      { arbitrary: fc.string({ maxLength: 16 }), weight: 1 },
    );
    fc.assert(
      fc.property(anyNumber, (to) => {
        expect(validatePhoneNumber(to)).toEqual(withFullParseOnly(to));
      }),
      { numRuns: 10_000 },
    );
  });
});
