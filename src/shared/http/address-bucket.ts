import { isIPv6 } from 'node:net';

/** Whatever is not an address (only a misconfigured TRUST_PROXY lets one through) shares one bucket. */
export const UNKNOWN_ADDRESS = 'unknown';
/** The longest IPv4 address, `255.255.255.255`. */
const MAX_IPV4_LENGTH = 15;

/**
 * The client a per-address limit counts: an IPv4 address as it is, an IPv6 address by its /64
 * (what one subscriber is given, so rotating within it gains nothing), an IPv4-mapped IPv6
 * address as its IPv4. The IPv4 path is a length check and an indexOf: no allocation.
 */
export function addressBucket(ip: string): string {
  if (ip.indexOf(':') < 0) return ip.length <= MAX_IPV4_LENGTH && ip.length > 0 ? ip : UNKNOWN_ADDRESS;
  return ipv6Bucket(ip);
}

function ipv6Bucket(ip: string): string {
  const zone = ip.indexOf('%');
  const address = zone < 0 ? ip : ip.slice(0, zone);
  if (!isIPv6(address)) return UNKNOWN_ADDRESS;
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice(7);
  const gap = lower.indexOf('::');
  const head = gap < 0 ? lower.split(':') : lower.slice(0, gap).split(':').filter(Boolean);
  const tail =
    gap < 0
      ? []
      : lower
          .slice(gap + 2)
          .split(':')
          .filter(Boolean);
  // A dotted IPv4 tail counts for two groups.
  const tailGroups = tail.length + (tail.some((g) => g.includes('.')) ? 1 : 0);
  const groups = [...head, ...Array<string>(Math.max(0, 8 - head.length - tailGroups)).fill('0'), ...tail];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
