/**
 * Parses a carrier connection URL:
 *   smpp://system_id:password@host:port?system_type=X&tps=50&window=10
 *   smpps://system_id:password@host:port?ca_file=/path/carrier-ca.pem   (SMPP over TLS)
 * system_id and password may be percent-encoded. Port defaults to 2775 (smpps: 3550). Over TLS
 * the carrier's certificate is always verified, against the system's CAs or `ca_file`.
 */
export interface SmppConnectionConfig {
  readonly host: string;
  readonly port: number;
  readonly systemId: string;
  readonly password: string;
  readonly systemType: string;
  /** submit_sm PDUs per second (token bucket rate). */
  readonly tps: number;
  /** Most submit_sm PDUs awaiting their response at once. */
  readonly window: number;
  /** smpps://: TLS, verifying the carrier's certificate (against `caFile`'s PEM when given). */
  readonly tls: { readonly caFile: string | null } | null;
}

export const DEFAULT_SMPP_PORT = 2775;
/** SMPP over TLS, as the smpp package and most carriers have it. */
export const DEFAULT_SMPPS_PORT = 3550;
export const DEFAULT_TPS = 50;
export const DEFAULT_WINDOW = 10;

const KNOWN_OPTIONS = new Set(['system_type', 'tps', 'window', 'ca_file']);

export class InvalidSmppUrlError extends Error {
  readonly code = 'invalid_smpp_url';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSmppUrlError';
  }
}

/**
 * Shows a URL without its password, for logs and errors. The credentials end at the *last* `@`:
 * a password may contain `@` (or `/`) unencoded, and none of it must show.
 */
export function redactSmppUrl(raw: string): string {
  const scheme = /^\s*[a-z][a-z0-9+.-]*:\/\//i.exec(raw);
  if (!scheme) return raw;
  const at = raw.lastIndexOf('@');
  if (at < scheme[0].length) return raw;
  const userinfo = raw.slice(scheme[0].length, at);
  const colon = userinfo.indexOf(':');
  if (colon < 0) return raw;
  return `${scheme[0]}${userinfo.slice(0, colon)}:***${raw.slice(at)}`;
}

export function parseSmppUrl(raw: string): SmppConnectionConfig {
  const shown = redactSmppUrl(raw);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidSmppUrlError(
      `Not a valid URL: "${shown}" (expected smpp://system_id:password@host:port)`,
    );
  }
  if (url.protocol !== 'smpp:' && url.protocol !== 'smpps:') {
    throw new InvalidSmppUrlError(
      `Unsupported scheme "${url.protocol}" in "${shown}": use smpp:// or smpps:// (TLS)`,
    );
  }
  const secure = url.protocol === 'smpps:';
  if (!url.hostname) throw new InvalidSmppUrlError(`Missing host in "${shown}"`);
  const systemId = decode(url.username, 'system_id', shown);
  const password = decode(url.password, 'password', shown);
  if (!systemId)
    throw new InvalidSmppUrlError(`Missing system_id in "${shown}" (smpp://system_id:password@host:port)`);
  if (url.pathname && url.pathname !== '/') {
    throw new InvalidSmppUrlError(`Unexpected path "${url.pathname}" in "${shown}"`);
  }
  const port = url.port === '' ? (secure ? DEFAULT_SMPPS_PORT : DEFAULT_SMPP_PORT) : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidSmppUrlError(`Invalid port in "${shown}"`);
  }
  for (const key of url.searchParams.keys()) {
    if (!KNOWN_OPTIONS.has(key)) {
      throw new InvalidSmppUrlError(
        `Unknown option "${key}" in "${shown}" (known: system_type, tps, window, ca_file)`,
      );
    }
  }
  const systemType = url.searchParams.get('system_type') ?? '';
  const caFile = url.searchParams.get('ca_file') || null;
  if (caFile && !secure) throw new InvalidSmppUrlError(`Option ca_file in "${shown}" needs smpps:// (TLS)`);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    systemId,
    password,
    systemType,
    tps: positiveNumber(url.searchParams.get('tps'), DEFAULT_TPS, 'tps', shown, false),
    window: positiveNumber(url.searchParams.get('window'), DEFAULT_WINDOW, 'window', shown, true),
    tls: secure ? { caFile } : null,
  };
}

function decode(value: string, what: string, shown: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new InvalidSmppUrlError(`Badly percent-encoded ${what} in "${shown}"`);
  }
}

function positiveNumber(
  raw: string | null,
  fallback: number,
  name: string,
  shown: string,
  integer: boolean,
): number {
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new InvalidSmppUrlError(
      `Option ${name}=${raw} in "${shown}" must be a positive ${integer ? 'integer' : 'number'}`,
    );
  }
  return value;
}
