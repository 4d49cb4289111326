import * as ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import { invalid, type DomainError } from '../../shared/domain-error';
import { err, ok, type Result } from '../../shared/result';

/** How many entries one key's allow-list may hold. */
export const MAX_ALLOWED_IPS = 50;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address as compared: an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is its IPv4 address. */
const parseAddress = (value: string) => ipaddr.process(value);

/** ipaddr.js also takes inet_aton's shorthands (`1.2.3` is 1.2.0.3): only the written-out forms are taken. */
function parseEntry(entry: string): Range | null {
  try {
    if (isIP(entry.split('/')[0]) === 0) return null;
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) return null;
      const [address, bits] = ipaddr.parseCIDR(entry);
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
        return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
      return [address, bits];
    }
    if (!ipaddr.isValid(entry)) return null;
    const address = parseAddress(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

/**
 * A key's `allowed_ips` as given (a list, or one comma- or space-separated string), each an IPv4
 * or IPv6 address or CIDR, written back in their normal form. Empty means anywhere.
 */
export function normaliseAllowedIps(input: unknown): Result<string[], DomainError> {
  const entries = (
    Array.isArray(input)
      ? input
      : typeof input === 'string'
        ? input.split(/[\s,]+/)
        : input == null
          ? []
          : null
  )
    ?.map((e) => (typeof e === 'string' ? e.trim() : e))
    .filter((e) => e !== '');
  if (!entries || entries.some((e) => typeof e !== 'string'))
    return err(
      invalid('invalid_allowed_ips', 'allowed_ips must be a list of IP addresses or CIDRs', 'allowed_ips'),
    );
  if (entries.length > MAX_ALLOWED_IPS)
    return err(
      invalid(
        'invalid_allowed_ips',
        `allowed_ips may hold at most ${MAX_ALLOWED_IPS} entries`,
        'allowed_ips',
      ),
    );
  const normal: string[] = [];
  for (const entry of entries as string[]) {
    const range = parseEntry(entry);
    if (!range)
      return err(
        invalid(
          'invalid_allowed_ips',
          `"${entry.slice(0, 60)}" is not an IP address or CIDR (such as 203.0.113.7, 198.51.100.0/24 or 2001:db8::/32)`,
          'allowed_ips',
        ),
      );
    const [address, bits] = range;
    const full = address.kind() === 'ipv4' ? 32 : 128;
    const text = bits === full ? address.toString() : `${address.toString()}/${bits}`;
    if (!normal.includes(text)) normal.push(text);
  }
  return ok(normal);
}

/** Whether `clientIp` is inside the allow-list (an empty list allows every address). */
export function ipAllowed(allowedIps: readonly string[] | undefined, clientIp: string): boolean {
  if (!allowedIps || allowedIps.length === 0) return true;
  let client: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    client = parseAddress(clientIp);
  } catch {
    return false;
  }
  return allowedIps.some((entry) => {
    const range = parseEntry(entry);
    return range !== null && range[0].kind() === client.kind() && client.match(range);
  });
}
