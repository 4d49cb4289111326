import { getCountries, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
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
  if (!best) return err(invalid('unsupported_destination', noRouteMessage(e164, extraRoutes), 'to'));
  return ok({ carrier: best.carrier, prefix: best.prefix });
}

/**
 * Says what is served and how an operator serves more: `No route sends to +2348031234567
 * (Nigeria). This service sends to +233 (Ghana). An operator adds a destination with
 * `npm run cli -- routes:add --prefix +234 --carrier <NAME>`, which takes effect without a restart`.
 */
function noRouteMessage(e164: string, extraRoutes: readonly Route[]): string {
  const code = callingCodeOf(e164);
  const country = parsePhoneNumberFromString(e164)?.country;
  const served = new Set<string>();
  for (const { prefix } of [...BUILT_IN_ROUTES, ...extraRoutes]) {
    const prefixCode = callingCodeOf(prefix);
    const countries = prefixCode === null ? [] : (countriesByCallingCode?.get(prefixCode) ?? []);
    // A prefix within one country's code serves that country; within a shared code (+1), only itself.
    if (prefixCode !== null && (countries.length === 1 || prefix === `+${prefixCode}`))
      served.add(`+${prefixCode} (${countries.map(regionName).join(', ')})`);
    else served.add(prefix);
  }
  return (
    `No route sends to ${e164}${country ? ` (${regionName(country)})` : ''}. ` +
    `This service sends to ${[...served].join('; ')}. An operator adds a destination with ` +
    `\`npm run cli -- routes:add --prefix +${code ?? '<digits>'} --carrier <NAME>\`, which takes effect without a restart`
  );
}

let countriesByCallingCode: Map<string, string[]> | null = null;
let regionNames: Intl.DisplayNames | null = null;

const regionName = (country: string) =>
  (regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' })).of(country) ?? country;

/** The country calling code a number or route prefix starts with (`+447…` → `44`); codes are prefix-free. */
function callingCodeOf(e164: string): string | null {
  countriesByCallingCode ??= getCountries().reduce((byCode, country) => {
    const code = getCountryCallingCode(country);
    return byCode.set(code, [...(byCode.get(code) ?? []), country]);
  }, new Map<string, string[]>());
  for (let length = 1; length <= 3; length++) {
    const digits = e164.slice(1, 1 + length);
    if (countriesByCallingCode.has(digits)) return digits;
  }
  return null;
}
