import type { VerifiedPayment } from '../ports/payment-provider.port';

/** Past this many checkouts remembered, expired answers are dropped (and, if need be, the oldest). */
const MAX_ENTRIES = 10_000;

/**
 * The provider's last answer per checkout, for a few seconds: the hosted pages' return and
 * decline routes need no sign-in, so without it anyone could make us call the provider (with
 * our secret key) as fast as they can send requests. Callers asking at once share one call;
 * a failed call is not remembered (the next caller asks again).
 */
export class VerificationCache {
  private readonly entries = new Map<
    string,
    { readonly until: number; readonly answer: Promise<VerifiedPayment> }
  >();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  verify(checkoutId: string, ask: () => Promise<VerifiedPayment>): Promise<VerifiedPayment> {
    const now = this.now();
    const hit = this.entries.get(checkoutId);
    if (hit && hit.until > now) return hit.answer;
    if (this.ttlMs <= 0) return ask();
    this.makeRoom(now);
    const answer = ask();
    this.entries.delete(checkoutId); // re-inserted last: the map stays in insertion (age) order
    this.entries.set(checkoutId, { until: now + this.ttlMs, answer });
    answer.catch(() => {
      if (this.entries.get(checkoutId)?.answer === answer) this.entries.delete(checkoutId);
    });
    return answer;
  }

  private makeRoom(now: number): void {
    if (this.entries.size < MAX_ENTRIES) return;
    for (const [id, entry] of this.entries) if (entry.until <= now) this.entries.delete(id);
    while (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}
