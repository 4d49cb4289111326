import type { MetadataJson } from 'libphonenumber-js/core';
import maxMetadata from 'libphonenumber-js/max/metadata';
import { ghanaMobileNumberTest, mobileNumberTest } from './mobile-number-pattern';

/** Index of the type patterns in a minified numbering plan, then MOBILE's place among them. */
const TYPES = 11;
const MOBILE = 1;

/** The real max metadata with Ghana's plan edited, to show what the reader does with other data. */
const withGhanaPlan = (edit: (plan: unknown[]) => void): MetadataJson => {
  // Not structuredClone: under jest its objects come from another realm, and libphonenumber
  // refuses metadata whose constructor is not this realm's Object.
  const metadata = JSON.parse(JSON.stringify(maxMetadata)) as MetadataJson;
  const plan = metadata.countries.GH;
  if (!plan) throw new Error('no GH plan in libphonenumber-js max metadata');
  edit(plan);
  return metadata;
};
const ghanaMobileType = (plan: unknown[]): unknown[] => {
  const types = plan[TYPES];
  if (!Array.isArray(types) || !Array.isArray(types[MOBILE])) throw new Error('no GH mobile type');
  return types[MOBILE];
};

describe('mobileNumberTest', () => {
  it('reads Ghana mobile ranges from the installed libphonenumber-js', () => {
    // If this fails, every Ghana send silently takes the slow full parse: update the reader.
    expect(ghanaMobileNumberTest).toBeDefined();
  });

  it.each(['241234567', '201234567', '256123456', '257123456', '591234567', '551234567'])(
    'accepts the Ghana mobile national number %s',
    (nationalNumber) => expect(ghanaMobileNumberTest?.(nationalNumber)).toBe(true),
  );

  it.each([
    ['a fixed line', '302123456'],
    ['a toll-free number', '800123456'],
    ['an unassigned range', '211234567'],
    ['an unassigned +23325 range', '255123456'],
    ['a 590 number', '590123456'],
    ['8 digits', '24123456'],
    ['10 digits', '2412345678'],
    ['a national 0', '024123456'],
  ])('does not accept %s', (_, nationalNumber) =>
    expect(ghanaMobileNumberTest?.(nationalNumber)).toBe(false),
  );

  it('reads an unedited copy of the metadata as the original (so the edits below are what count)', () =>
    expect(
      mobileNumberTest(
        withGhanaPlan(() => undefined),
        'GH',
      )?.('241234567'),
    ).toBe(true));

  it('respects the mobile possible lengths of the metadata', () => {
    const tenDigitMobiles = withGhanaPlan((plan) => {
      ghanaMobileType(plan)[1] = [10];
    });
    expect(mobileNumberTest(tenDigitMobiles, 'GH')?.('241234567')).toBe(false);
  });

  it('gives no test where metadata folds mobile into fixed line (empty mobile pattern), as for the US', () => {
    expect(mobileNumberTest(maxMetadata, 'US')).toBeUndefined();
    const folded = withGhanaPlan((plan) => {
      ghanaMobileType(plan)[0] = '';
    });
    expect(mobileNumberTest(folded, 'GH')).toBeUndefined();
  });

  it('gives no test, without throwing, when the metadata has no type patterns', () => {
    const withoutTypes = withGhanaPlan((plan) => {
      plan[TYPES] = 0;
    });
    expect(mobileNumberTest(withoutTypes, 'GH')).toBeUndefined();
  });

  it('gives no test, without throwing, for metadata it cannot read', () => {
    const unreadable: unknown = { version: 4 };
    expect(mobileNumberTest(unreadable as MetadataJson, 'GH')).toBeUndefined();
  });
});
