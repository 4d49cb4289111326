import { isIP } from 'node:net';

/** Fastify's `trustProxy`: false, a hop count, or the addresses of trusted proxies. */
export type TrustProxy = false | number | string[];

/** The names proxy-addr knows for address ranges, besides addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY, read so that a client can never pick its own address. Fastify's `true` takes the
 * left-most X-Forwarded-For entry, which the client writes and common proxies append to; so
 * `true` here means one hop (the address the nearest proxy saw), a number N means N proxies,
 * and anything else is a comma-separated list of trusted proxy addresses or CIDRs
 * (`10.0.0.0/8,127.0.0.1`, or proxy-addr's `loopback`, `linklocal`, `uniquelocal`).
 */
export function trustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isAddressOrCidr(entry))
      throw new Error(
        `TRUST_PROXY must be true, a hop count or a comma-separated list of proxy addresses or CIDRs; "${entry}" is none of those`,
      );
  }
  return entries;
}

/** How proxy-addr asks whether to trust the address `hop` steps from the socket (0 is the socket's). */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * What Fastify is given. A hop count becomes a function trusting the nearest N hops: Fastify
 * 5.12 ignores X-Forwarded-For under a numeric trustProxy (it cannot tell the proxy from a
 * client connecting directly), which would put every client behind the proxy in one bucket.
 * With a hop count the operator states that only the proxies reach the service.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | TrustFunction {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}
