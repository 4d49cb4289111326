import { DomainError, invalid } from '../../shared/domain-error';
import type { WebhookEnvironment } from './webhook.events';

const MAX_URL_LENGTH = 2048;

const refuse = (message: string): DomainError => invalid('invalid_url', message, 'url');

/**
 * The URL an endpoint is created with. LIVE endpoints must be https (and, checked by the
 * caller against DNS, public); TEST endpoints may be http and local, for development.
 */
export function parseWebhookUrl(value: unknown, environment: WebhookEnvironment): URL {
  if (value === undefined || value === null || value === '')
    throw invalid('parameter_missing', 'url is required', 'url');
  if (typeof value !== 'string') throw invalid('parameter_invalid', 'url must be a string', 'url');
  const hasControl = [...value].some((ch) => ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) === 0x7f);
  if (value.length > MAX_URL_LENGTH || hasControl) {
    throw refuse(
      `url must be an absolute http(s) URL of at most ${MAX_URL_LENGTH} characters without spaces`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('url must be an absolute URL such as https://example.com/webhooks');
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !url.hostname ||
    !/^https?:\/\//i.test(value)
  ) {
    throw refuse('url must be an absolute http(s) URL such as https://example.com/webhooks');
  }
  if (url.username || url.password) throw refuse('url must not carry credentials (user:password@)');
  if (environment === 'LIVE' && url.protocol !== 'https:') {
    throw refuse('LIVE webhook endpoints must use https; http is accepted only for TEST endpoints');
  }
  return url;
}

/** The host as a resolver takes it: IPv6 literals lose their brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * True for addresses a LIVE webhook must never reach: loopback, private, link-local,
 * carrier-grade NAT, unspecified, multicast and reserved ranges, in IPv4 and IPv6 (including
 * IPv4-mapped, IPv4-compatible and NAT64 forms). Anything that does not parse is unsafe.
 */
export function isUnsafeAddress(address: string): boolean {
  const v4 = parseIPv4(address);
  if (v4) return isUnsafeIPv4(v4);
  const v6 = parseIPv6(address);
  if (!v6) return true;
  const [a, b, c, d, e, f, g, h] = v6;
  const embedded = (): number[] => [g >> 8, g & 0xff, h >> 8, h & 0xff];
  if (v6.every((x) => x === 0)) return true; // ::
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && g === 0 && h === 1) return true; // ::1
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0xffff || f === 0))
    return isUnsafeIPv4(embedded()); // ::ffff:a.b.c.d, ::a.b.c.d
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return isUnsafeIPv4(embedded()); // 64:ff9b::/96
  if ((a & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((a & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((a & 0xff00) === 0xff00) return true; // multicast
  if (a === 0x2001 && b === 0x0db8) return true; // documentation
  if (a === 0x2002) return isUnsafeIPv4([b >> 8, b & 0xff, c >> 8, c & 0xff]); // 6to4
  return false;
}

function isUnsafeIPv4([a, b]: number[]): boolean {
  return (
    a === 0 || // 0/8
    a === 10 || // 10/8
    a === 127 || // loopback
    (a === 100 && b >= 64 && b <= 127) || // 100.64/10 carrier-grade NAT
    (a === 169 && b === 254) || // link-local
    (a === 172 && b >= 16 && b <= 31) || // 172.16/12
    (a === 192 && b === 168) || // 192.168/16
    (a === 192 && b === 0) || // 192.0.0/24, 192.0.2/24
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

function parseIPv6(input: string): number[] | null {
  let text = input.replace(/%.*$/, ''); // zone id
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return null;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIPv4(last);
    if (!v4) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const given = head.length + rest.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const zeros = new Array<number>(8 - given).fill(0);
  return [...head, ...zeros.map(String), ...rest].map((g) => parseInt(g, 16));
}
