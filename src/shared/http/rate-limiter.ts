import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../domain-error';
import { addressBucket } from './address-bucket';
import { DomainErrorWithHeaders } from './error-body';
import { TokenBuckets } from './token-bucket';

/** About 100 bytes each: at most ~10 MB of per-address buckets, whatever clients send. */
export const MAX_ADDRESS_BUCKETS = 100_000;

/**
 * API.md's limits: per API key (lower for TEST keys, which anyone can get for free), per client
 * address on the endpoints without a key, per signed-in console session, and batch items per
 * wallet (lower for TEST wallets).
 */
@Injectable()
export class RateLimiter {
  private readonly perKey: TokenBuckets;
  private readonly perTestKey: TokenBuckets;
  private readonly perAddress: TokenBuckets;
  private readonly perSession: TokenBuckets;
  private readonly previews: TokenBuckets | null;
  private readonly batchItems: TokenBuckets;
  private readonly testBatchItems: TokenBuckets;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.perKey = new TokenBuckets(config.rateLimits.perKey);
    // A TEST key never gets more than a LIVE key would.
    const { perKey, perTestKey } = config.rateLimits;
    this.perTestKey = new TokenBuckets({
      perSecond: Math.min(perKey.perSecond, perTestKey.perSecond),
      burst: Math.min(perKey.burst, perTestKey.burst),
    });
    // Reachable without a key, so bounded: past it the oldest bucket is forgotten (a fresh burst).
    this.perAddress = new TokenBuckets(config.rateLimits.perAddress, MAX_ADDRESS_BUCKETS);
    // Sessions exist only after a sign-in (itself limited per address): unbounded in count like keys.
    this.perSession = new TokenBuckets(config.rateLimits.perSession);
    const previews = config.rateLimits.previewsPerSessionPerMinute;
    this.previews = previews > 0 ? new TokenBuckets({ perSecond: previews / 60, burst: previews }) : null;
    const { batchItemsPerWallet: live, batchItemsPerTestWallet: test } = config.rateLimits;
    this.batchItems = new TokenBuckets(live);
    this.testBatchItems = new TokenBuckets({
      perSecond: Math.min(live.perSecond, test.perSecond),
      burst: Math.min(live.burst, test.burst),
    });
  }

  consumeForKey(keyId: string, environment: 'TEST' | 'LIVE'): void {
    const buckets = environment === 'TEST' ? this.perTestKey : this.perKey;
    refuseIfLimited(buckets.take(keyId), 'Too many requests for this API key');
  }

  /** A signed-in console request, by its session's handle (never the cookie's secret itself). */
  consumeForSession(sessionHandle: string): void {
    refuseIfLimited(this.perSession.take(sessionHandle), 'Too many requests from this console session');
  }

  /** A console "Send to many" preview (a quote of up to 1,000 rows), by its session's handle. */
  consumePreview(sessionHandle: string): void {
    if (this.previews)
      refuseIfLimited(this.previews.take(sessionHandle), 'Too many previews from this console session');
  }

  /**
   * A batch's items, counted against its wallet before any item is checked, whatever key or
   * console session sends it: the per-key limit counts requests, and one request is up to 1,000
   * items of work.
   */
  consumeBatchItems(walletId: string, environment: 'TEST' | 'LIVE', items: number): void {
    const buckets = environment === 'TEST' ? this.testBatchItems : this.batchItems;
    refuseIfLimited(buckets.take(walletId, items), `Too many batch items for this wallet (${items} asked)`);
  }

  /** `address` is the client address as Fastify reports it; IPv6 clients are counted per /64. */
  consumeForAddress(address: string): void {
    refuseIfLimited(this.perAddress.take(addressBucket(address)), 'Too many requests from this address');
  }
}

export function refuseIfLimited(retryAfterSeconds: number, message: string): void {
  if (retryAfterSeconds === 0) return;
  throw new DomainErrorWithHeaders(
    new DomainError('rate_limit', 'rate_limited', `${message}; retry after ${retryAfterSeconds} s`),
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
}

/**
 * On the endpoints without a key (try-out, hosted checkout, console sign-in): counts every
 * request against its client address before anything else looks at it, invalid ones included.
 */
@Injectable()
export class PerAddressRateLimit implements CanActivate {
  constructor(private readonly limiter: RateLimiter) {}

  canActivate(context: ExecutionContext): boolean {
    this.limiter.consumeForAddress(context.switchToHttp().getRequest<FastifyRequest>().ip);
    return true;
  }
}
