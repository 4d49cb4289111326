// Core's Metadata class over the same 'max' metadata that validatePhoneNumber's full parse uses, so
// the fast path reads exactly the ranges the slow path decides with (the max entry point does not
// export Metadata at runtime, although its typings declare it).
import { Metadata, type CountryCode, type MetadataJson } from 'libphonenumber-js/core';
import maxMetadata from 'libphonenumber-js/max/metadata';

/** Tells whether a national (significant) number is in the country's mobile ranges. */
export type NationalNumberTest = (nationalNumber: string) => boolean;

type Method = (...args: unknown[]) => unknown;

const hasMethod = <K extends string>(value: unknown, name: K): value is Record<K, Method> =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, name) === 'function';

const isLengthList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((length) => typeof length === 'number');

/**
 * Builds, from libphonenumber's own metadata, the test that makes its parse call a number MOBILE:
 * the general national-number pattern, the mobile pattern and the mobile possible lengths, each as
 * libphonenumber's getNumberType checks them. Read at load rather than copied, so a library update
 * moves the fast path with it.
 *
 * Undefined when that metadata API is not there (its undocumented parts can change in a future
 * version) or when the mobile pattern is empty (metadata then folds mobile into fixed line, which
 * this test does not model): callers then keep the full parse, slower but never wrong.
 */
export function mobileNumberTest(
  metadata: MetadataJson,
  country: CountryCode,
): NationalNumberTest | undefined {
  try {
    const plans = new Metadata(metadata);
    plans.selectNumberingPlan(country);
    const plan: unknown = plans.numberingPlan;
    if (!hasMethod(plan, 'nationalNumberPattern') || !hasMethod(plan, 'type')) return undefined;
    const mobile = plan.type('MOBILE');
    if (!hasMethod(mobile, 'pattern') || !hasMethod(mobile, 'possibleLengths')) return undefined;
    const general = plan.nationalNumberPattern();
    const pattern = mobile.pattern();
    const lengths = mobile.possibleLengths();
    if (typeof general !== 'string' || typeof pattern !== 'string' || pattern === '') return undefined;
    if (lengths !== undefined && !isLengthList(lengths)) return undefined;
    // Anchored as libphonenumber's matchesEntirely anchors, but compiled once instead of per call.
    const inPlan = new RegExp(`^(?:${general})$`);
    const inMobileRanges = new RegExp(`^(?:${pattern})$`);
    return (nationalNumber) =>
      (lengths === undefined || lengths.includes(nationalNumber.length)) &&
      inMobileRanges.test(nationalNumber) &&
      inPlan.test(nationalNumber);
  } catch {
    return undefined;
  }
}

/** Ghana's mobile ranges, or undefined if this libphonenumber-js no longer exposes them. */
export const ghanaMobileNumberTest = mobileNumberTest(maxMetadata, 'GH');
