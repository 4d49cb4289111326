import * as ipaddr from 'ipaddr.js';
import { DomainError, invalid } from '../../shared/domain-error';
import type { WebhookEnvironment } from './webhook.events';

const MAX_URL_LENGTH = 2048;

const refuse = (message: string): DomainError => invalid('invalid_url', message, 'url');

/**
 * The URL an endpoint is created with. LIVE endpoints must be https; TEST endpoints may be
 * http. Every endpoint must also be public, which the caller checks against DNS.
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
 * True for addresses a webhook must never reach: anything but ordinary global unicast, as the
 * maintained ipaddr.js classifies the IANA special-purpose registries (loopback, private,
 * link-local, carrier-grade NAT, unspecified, multicast, broadcast, documentation, benchmarking,
 * reserved, NAT64, 6to4, Teredo…). IPv4-mapped IPv6 is judged as the IPv4 address it carries;
 * the whole of ::/8 (IPv4-compatible addresses included) is refused. Anything that does not
 * parse is unsafe.
 */
export function isUnsafeAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return true;
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts[0] >> 8 === 0;
}
