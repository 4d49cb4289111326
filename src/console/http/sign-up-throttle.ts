import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { TokenBuckets } from '../../shared/http/token-bucket';

/**
 * SIGNUP_LIMIT_PER_ADDRESS_PER_HOUR: console sign-ups one client address may make per hour (a
 * token bucket: that many at once, then one more every hour / limit). Every sign-up opens a TEST
 * wallet with free credits, so an address cannot mint accounts as fast as it can post forms.
 * In this process's memory, like the other per-address limits; 0 turns it off.
 */
@Injectable()
export class SignUpThrottle {
  private readonly buckets: TokenBuckets | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const perHour = config.rateLimits.signUpsPerHour;
    this.buckets = perHour > 0 ? new TokenBuckets({ perSecond: perHour / 3600, burst: perHour }) : null;
  }

  /** Takes a sign-up from the address: 0 when allowed, else the seconds until the next one. */
  take(address: string): number {
    return this.buckets ? this.buckets.take(address) : 0;
  }
}
