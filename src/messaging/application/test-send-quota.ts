import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { DomainError } from '../../shared/domain-error';
import { DomainErrorWithHeaders } from '../../shared/http/error-body';
import { READ_STORE, ReadStore } from '../../shared/read-store/read-store.port';
import { plural } from '../../shared/wording';
import { MESSAGES, MessageDoc } from '../projections/messages.projection';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * TEST_DAILY_MESSAGE_QUOTA: messages one TEST wallet may send per UTC day. TEST credits are
 * free and the failing sandbox numbers give them back, so credits alone never stop a TEST key.
 *
 * On the send path, so O(1) and allocation-free once a wallet is known today: a counter per
 * wallet in this process's memory, all dropped at UTC midnight. A wallet's first send of the day
 * in this process seeds its counter from the durable record (the messages read model: its
 * messages created since midnight), so a restart does not hand out a fresh quota. Several
 * processes each count their own sends on top of the seed: together they may let through up to
 * one quota per process, a bound kept on purpose instead of a shared write per send.
 */
@Injectable()
export class TestSendQuota {
  private readonly quota: number;
  private readonly sent = new Map<string, number>();
  private readonly seeding = new Map<string, Promise<void>>();
  private dayStartsAt = 0;
  private dayEndsAt = 0;

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.quota = config.testDailyMessageQuota;
  }

  /**
   * Counts `messages` (one send, or a batch's accepted items: all or none) against the wallet's
   * quota, or throws 429 `rate_limited` (Retry-After: until midnight UTC). Null when decided at
   * once; a promise only for the wallet's first send of the day here (its counter is being
   * seeded). `now`: the send's own clock reading.
   */
  take(walletId: string, now: number, messages = 1): Promise<void> | null {
    if (this.quota === 0) return null;
    if (now >= this.dayEndsAt) this.startDay(now);
    const sent = this.sent.get(walletId);
    if (sent === undefined) return this.seed(walletId).then(() => this.count(walletId, now, messages));
    this.count(walletId, now, messages);
    return null;
  }

  /** Counted sends that recorded nothing (refused for credit, say) give their places back. */
  giveBack(walletId: string, messages = 1): void {
    const sent = this.sent.get(walletId);
    if (sent !== undefined && sent > 0) this.sent.set(walletId, Math.max(0, sent - messages));
  }

  private count(walletId: string, now: number, messages: number): void {
    const sent = this.sent.get(walletId) ?? 0;
    if (sent + messages > this.quota) {
      const retryAfter = Math.max(1, Math.ceil((this.dayEndsAt - now) / 1000));
      throw new DomainErrorWithHeaders(
        new DomainError(
          'rate_limit',
          'rate_limited',
          `This TEST wallet has sent its ${plural(this.quota, 'message')} for today (UTC); retry after ${retryAfter} s, or send with a LIVE key`,
        ),
        { 'retry-after': String(retryAfter) },
      );
    }
    this.sent.set(walletId, sent + messages);
  }

  private startDay(now: number): void {
    this.dayStartsAt = now - (now % DAY_MS);
    this.dayEndsAt = this.dayStartsAt + DAY_MS;
    this.sent.clear();
    this.seeding.clear();
  }

  /** The wallet's messages created since midnight UTC, as recorded (at most quota + 1 read). */
  private seed(walletId: string): Promise<void> {
    const running = this.seeding.get(walletId);
    if (running) return running;
    const since = new Date(this.dayStartsAt).toISOString();
    const seeding = this.reads
      .list<MessageDoc>(MESSAGES, {
        partition: walletId,
        order: 'desc',
        limit: this.quota + 1,
      })
      .then((newest) => {
        if (this.sent.has(walletId) || !this.seeding.has(walletId)) return;
        this.sent.set(walletId, newest.filter((m) => m.sort >= since).length);
      })
      .finally(() => this.seeding.delete(walletId));
    this.seeding.set(walletId, seeding);
    return seeding;
  }
}
