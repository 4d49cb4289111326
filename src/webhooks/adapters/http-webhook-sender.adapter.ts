import { Inject, Injectable } from '@nestjs/common';
import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { isUnsafeAddress } from '../domain/webhook-url';
import {
  AddressGuard,
  HOST_RESOLVER,
  HostResolver,
  ResolvedAddress,
  WebhookRequest,
  WebhookResponse,
  WebhookSender,
} from '../ports/webhook-sender.port';

/** node's resolver (getaddrinfo, so /etc/hosts counts), every address in the system's order. */
export class DnsHostResolver implements HostResolver {
  resolve(host: string, family?: number): Promise<ResolvedAddress[]> {
    return new Promise((resolve, reject) =>
      dnsLookup(host, { all: true, verbatim: true, family: family ?? 0 }, (error, found) =>
        error ? reject(error) : resolve(found),
      ),
    );
  }
}

/** Every address `host` resolves to, or why it cannot be used by a webhook endpoint. */
@Injectable()
export class DnsAddressGuard implements AddressGuard {
  constructor(@Inject(HOST_RESOLVER) private readonly resolver: HostResolver) {}

  async check(host: string): Promise<string | null> {
    if (isIP(host))
      return isUnsafeAddress(host) ? `${host} is a loopback, private or link-local address` : null;
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolver.resolve(host);
    } catch {
      return `${host} could not be resolved`;
    }
    if (addresses.length === 0) return `${host} could not be resolved`;
    const bad = addresses.find((a) => isUnsafeAddress(a.address));
    return bad ? `${host} resolves to ${bad.address}, a loopback, private or link-local address` : null;
  }
}

/**
 * A lookup for the socket itself, through the resolver; with `publicOnly` it refuses unsafe
 * addresses: the address checked is the address connected to, so DNS rebinding between the
 * endpoint's creation and a delivery cannot slip through.
 */
function socketLookup(resolver: HostResolver, publicOnly: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolver.resolve(hostname, options.family as number | undefined).then(
      (addresses) => {
        const bad = publicOnly ? addresses.find((a) => isUnsafeAddress(a.address)) : undefined;
        if (bad || addresses.length === 0) {
          const refused = Object.assign(new Error(`${hostname} resolves to a non-public address`), {
            code: 'EUNSAFEADDRESS',
          });
          return callback(refused, '', 0);
        }
        if ((options as { all?: boolean }).all)
          return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** POSTs with node's http(s) client: a hard timeout, the response body read and dropped. */
@Injectable()
export class HttpWebhookSender implements WebhookSender {
  constructor(@Inject(HOST_RESOLVER) private readonly resolver: HostResolver) {}

  send(req: WebhookRequest): Promise<WebhookResponse> {
    return new Promise((resolve) => {
      let settled = false;
      const done = (response: WebhookResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal.removeEventListener('abort', onAbort);
        resolve(response);
      };
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return done({ status: null, error: 'invalid url' });
      }
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (req.publicOnly && isIP(host) && isUnsafeAddress(host)) {
        return done({ status: null, error: `${host} is not a public address` });
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(url, {
        method: 'POST',
        headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body).toString() },
        lookup: socketLookup(this.resolver, req.publicOnly),
        agent: false,
      });
      const timer = setTimeout(() => {
        outgoing.destroy();
        done({ status: null, error: `no answer within ${req.timeoutMs} ms` });
      }, req.timeoutMs);
      const onAbort = () => {
        outgoing.destroy();
        done({ status: null, error: 'aborted' });
      };
      if (req.signal.aborted) return onAbort();
      req.signal.addEventListener('abort', onAbort);
      outgoing.on('response', (response) => {
        const status = response.statusCode ?? null;
        response.on('data', () => undefined);
        response.on('end', () => done({ status, error: null }));
        response.on('error', () => done({ status, error: null }));
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        done({
          status: null,
          error:
            error.code === 'EUNSAFEADDRESS'
              ? error.message
              : `${error.code ?? 'error'}: ${error.message}`.slice(0, 200),
        }),
      );
      outgoing.end(req.body);
    });
  }
}
