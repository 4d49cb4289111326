import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { EVENT_STORE, EventStore } from '../../shared/event-store/event-store.port';
import { RecentlyUsed } from '../../shared/recently-used';
import { apiKeyUsageStream, type ApiKeyUsed } from '../domain/api-key-usage.events';

/**
 * A key's `last_used_at`, recorded at most once a minute per key by this process and never per
 * request: a send costs a look-up in this map; the first use of a key in a minute adds one small
 * append, not awaited (it joins whatever group commit comes next), on the key's own usage stream.
 * Several processes each record their own minute, so a key may gain one event per process a minute.
 */
@Injectable()
export class ApiKeyUsage {
  static readonly EVERY_MS = 60_000;
  private readonly logger = new Logger('api-key-usage');
  /** When this process last recorded each key's use (ms); bounded, the least recently used forgotten. */
  private readonly recorded = new RecentlyUsed<string, number>(50_000);

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  used(keyId: string): void {
    const now = this.clock.now();
    const last = this.recorded.peek(keyId);
    if (last !== undefined && now.getTime() - last < ApiKeyUsage.EVERY_MS) return;
    this.recorded.set(keyId, now.getTime());
    const data: ApiKeyUsed['data'] = { keyId, usedAt: now.toISOString() };
    void this.events
      .append(apiKeyUsageStream(keyId), [{ type: 'ApiKeyUsed', data }], 'any')
      .catch((error: Error) => {
        // Not recorded: the next request of the key tries again rather than waiting a minute.
        this.recorded.delete(keyId);
        this.logger.warn(`last use of ${keyId} not recorded: ${error.message}`);
      });
  }
}
