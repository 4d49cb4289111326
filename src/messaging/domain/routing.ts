import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';

/** A destination prefix (E.164 style, `+` then digits) and the carrier that sends to it. */
export interface Route {
  readonly prefix: string;
  /** Carrier id: upper case, as in CARRIER_<NAME>_URL and the API's `carrier` field. */
  readonly carrier: string;
}

export const MTN = 'MTN';
export const TELECEL = 'TELECEL';
export const AT = 'AT';

const GHANA_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  [MTN]: ['24', '25', '53', '54', '55', '59'],
  [TELECEL]: ['20', '50'],
  [AT]: ['23', '26', '27', '56', '57'],
};

/** Built in: Ghana by the two digits after +233 (API.md, Routing). */
export const BUILT_IN_ROUTES: readonly Route[] = Object.entries(GHANA_PREFIXES).flatMap(
  ([carrier, twoDigits]) => twoDigits.map((digits) => ({ prefix: `+233${digits}`, carrier })),
);

const PREFIX = /^\+\d{1,15}$/;
const CARRIER = /^[A-Z][A-Z0-9_]{0,31}$/;

/** Checks and normalizes an operator's route (`routes:add`): carrier names are upper-cased. */
export function parseRoute(input: { prefix: unknown; carrier: unknown }): Result<Route, DomainError> {
  if (typeof input.prefix !== 'string' || !PREFIX.test(input.prefix)) {
    return err(invalid('invalid_route_prefix', 'prefix must be + and 1–15 digits, such as +234', 'prefix'));
  }
  const carrier = typeof input.carrier === 'string' ? input.carrier.trim().toUpperCase() : '';
  if (!CARRIER.test(carrier)) {
    return err(
      invalid(
        'invalid_carrier',
        'carrier must be 1–32 letters, digits or underscores, starting with a letter',
        'carrier',
      ),
    );
  }
  return ok({ prefix: input.prefix, carrier });
}

/**
 * The carrier for an E.164 number: the longest matching prefix among the built-in routes and
 * the operator's. On equal prefixes the operator's route wins, and among those the later one.
 */
export function resolveRoute(
  e164: string,
  extraRoutes: readonly Route[] = [],
): Result<{ carrier: string; prefix: string }, DomainError> {
  let best: Route | null = null;
  for (const route of [...BUILT_IN_ROUTES, ...extraRoutes]) {
    if (e164.startsWith(route.prefix) && (!best || route.prefix.length >= best.prefix.length)) best = route;
  }
  if (!best) return err(invalid('unsupported_destination', `No route sends to ${e164}`, 'to'));
  return ok({ carrier: best.carrier, prefix: best.prefix });
}

/** Every country calling code libphonenumber knows (they are prefix-free: at most one starts a number). */
const CALLING_CODES: ReadonlySet<string> = new Set(
  getCountries().map((country) => getCountryCallingCode(country)),
);

/** The calling code a route prefix is in (`+23324` → `233`), or null when the prefix is shorter than one. */
export function callingCodeOfPrefix(prefix: string): string | null {
  const digits = prefix.replace(/^\+/, '');
  for (let length = 1; length <= 3 && length <= digits.length; length++) {
    if (CALLING_CODES.has(digits.slice(0, length))) return digits.slice(0, length);
  }
  return null;
}

/**
 * The country of a carrier's routes, as its calling code: how a national number the carrier
 * writes on an inbound message is read. Null when its routes span several countries or none.
 */
export function carrierCallingCode(carrier: string, extraRoutes: readonly Route[] = []): string | null {
  const codes = new Set(
    [...BUILT_IN_ROUTES, ...extraRoutes]
      .filter((route) => route.carrier === carrier)
      .map((route) => callingCodeOfPrefix(route.prefix)),
  );
  const [only] = codes;
  return codes.size === 1 && only !== undefined ? only : null;
}
