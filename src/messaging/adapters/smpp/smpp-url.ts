/**
 * Parses a carrier connection URL:
 *   smpp://system_id:password@host:port?system_type=X&tps=50&window=10
 * system_id and password may be percent-encoded. Port defaults to 2775.
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
}

export const DEFAULT_SMPP_PORT = 2775;
export const DEFAULT_TPS = 50;
export const DEFAULT_WINDOW = 10;

const KNOWN_OPTIONS = new Set(['system_type', 'tps', 'window']);

export class InvalidSmppUrlError extends Error {
  readonly code = 'invalid_smpp_url';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSmppUrlError';
  }
}

/** Shows a URL without its password, for logs and errors. */
export function redactSmppUrl(raw: string): string {
  return raw.replace(/^(smpp:\/\/[^:@/]*:)[^@]*@/i, '$1***@');
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
  if (url.protocol !== 'smpp:') {
    throw new InvalidSmppUrlError(`Unsupported scheme "${url.protocol}" in "${shown}": use smpp://`);
  }
  if (!url.hostname) throw new InvalidSmppUrlError(`Missing host in "${shown}"`);
  const systemId = decode(url.username, 'system_id', shown);
  const password = decode(url.password, 'password', shown);
  if (!systemId)
    throw new InvalidSmppUrlError(`Missing system_id in "${shown}" (smpp://system_id:password@host:port)`);
  if (url.pathname && url.pathname !== '/') {
    throw new InvalidSmppUrlError(`Unexpected path "${url.pathname}" in "${shown}"`);
  }
  const port = url.port === '' ? DEFAULT_SMPP_PORT : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidSmppUrlError(`Invalid port in "${shown}"`);
  }
  for (const key of url.searchParams.keys()) {
    if (!KNOWN_OPTIONS.has(key)) {
      throw new InvalidSmppUrlError(
        `Unknown option "${key}" in "${shown}" (known: system_type, tps, window)`,
      );
    }
  }
  const systemType = url.searchParams.get('system_type') ?? '';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    systemId,
    password,
    systemType,
    tps: positiveNumber(url.searchParams.get('tps'), DEFAULT_TPS, 'tps', shown, false),
    window: positiveNumber(url.searchParams.get('window'), DEFAULT_WINDOW, 'window', shown, true),
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
