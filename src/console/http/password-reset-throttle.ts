import { Injectable } from '@nestjs/common';
import { TokenBuckets } from '../../shared/http/token-bucket';

/**
 * "Forgot password?" requests one client address may make: 10 an hour (then one every 6 minutes),
 * in this process's memory like the other per-address limits. Each account also gets at most 3
 * links an hour, recorded with its requests (RESETS_PER_ACCOUNT_PER_HOUR).
 */
@Injectable()
export class PasswordResetThrottle {
  private readonly buckets = new TokenBuckets({ perSecond: 10 / 3600, burst: 10 });

  /** 0 when allowed, else the seconds until the next one. */
  take(address: string): number {
    return this.buckets.take(address);
  }
}
