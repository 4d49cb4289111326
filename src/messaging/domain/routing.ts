import metadata from 'libphonenumber-js/metadata.max.json';
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
 * A batch may refuse 1,000 numbers at once: no parsing here, lookups only (the list of what is
 * served is made once per list of routes).
 */
function noRouteMessage(e164: string, extraRoutes: readonly Route[]): string {
  const code = callingCodeOf(e164);
  return (
    `No route sends to ${e164}${code ? ` (${countriesOf(code)})` : ''}. ` +
    `This service sends to ${servedBy(extraRoutes)}. An operator adds a destination with ` +
    `\`npm run cli -- routes:add --prefix +${code ?? '<digits>'} --carrier <NAME>\`, which takes effect without a restart`
  );
}

const served = new WeakMap<readonly Route[], string>();

/** `+233 (Ghana); +234 (Nigeria); +1876`: a prefix within a code several countries share names only itself. */
function servedBy(extraRoutes: readonly Route[]): string {
  const known = served.get(extraRoutes);
  if (known !== undefined) return known;
  const destinations = new Set<string>();
  for (const { prefix } of [...BUILT_IN_ROUTES, ...extraRoutes]) {
    const code = callingCodeOf(prefix);
    const shared = code !== null && (callingCodes().get(code)?.length ?? 0) > 1;
    destinations.add(
      code !== null && (!shared || prefix === `+${code}`) ? `+${code} (${countriesOf(code)})` : prefix,
    );
  }
  const text = [...destinations].join('; ');
  served.set(extraRoutes, text);
  return text;
}

let byCallingCode: Map<string, readonly string[]> | null = null;
const regionNames = new Map<string, string>();

/** Country calling code → the countries (ISO 3166) sharing it, its main one first (+1: US), from libphonenumber. */
function callingCodes(): Map<string, readonly string[]> {
  byCallingCode ??= new Map(Object.entries(metadata.country_calling_codes));
  return byCallingCode;
}

/** The country calling code a number or route prefix starts with (`+447…` → `44`); codes are prefix-free. */
export function callingCodeOf(e164: string): string | null {
  for (let length = 1; length <= 3; length++) {
    const digits = e164.slice(1, 1 + length);
    if (callingCodes().has(digits)) return digits;
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
      .map((route) => callingCodeOf(route.prefix)),
  );
  const [only] = codes;
  return codes.size === 1 && only !== undefined ? only : null;
}

/** `Ghana`; for a code several countries share, three of their names and how many more. */
function countriesOf(code: string): string {
  const countries = callingCodes().get(code) ?? [];
  const names = countries.slice(0, 3).map((country) => {
    let name = regionNames.get(country);
    if (name === undefined) {
      name = new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country;
      regionNames.set(country, name);
    }
    return name;
  });
  return countries.length > 3 ? `${names.join(', ')} and ${countries.length - 3} more` : names.join(', ');
}
