import { rmSync } from 'node:fs';
import { checkoutStream } from '../../src/billing/domain/checkout.events';
import { EVENT_STORE, EventStore } from '../../src/shared/event-store/event-store.port';
import { WalletService } from '../../src/wallet/application/wallet.service';
import { createMerchant } from '../support/merchant';
import { purchaseCredits, smsLeft, startCheckout } from '../support/hosted-checkout';
import { eventually, startTestApp, TestApp } from '../support/test-app';

describe('Billing: a crash in the middle of a payment', () => {
  let first: TestApp | null = null;
  let second: TestApp | null = null;
  afterAll(async () => {
    await second?.close();
    await first?.close();
    if (first) rmSync(first.dataDir, { recursive: true, force: true });
  });

  it('resumes from the event log alone: credits added exactly once, checkout succeeded', async () => {
    // A process that records facts but whose payment process never runs (it "dies" right after).
    first = await startTestApp({ env: { RUN_PROCESS_MANAGERS: 'false' }, keepData: true });
    const m = await createMerchant(first);
    const events = first.app.get<EventStore>(EVENT_STORE);
    const confirm = async (checkoutId: string) =>
      events.append(
        checkoutStream(checkoutId),
        [
          {
            type: 'PaymentConfirmed',
            data: {
              reference: checkoutId,
              amount: 5000,
              currency: 'GHS',
              provider: 'test',
              confirmedAt: new Date().toISOString(),
            },
          },
        ],
        0n,
      );

    // 1. Died right after PaymentConfirmed, before any credit.
    const a = await startCheckout(first, m.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/a',
    });
    await confirm(a.id);
    // 2. Died after crediting the wallet, before CheckoutSucceeded.
    const b = await startCheckout(first, m.testKey, {
      package_id: 'pkg_starter',
      success_url: 'https://shop.example/b',
    });
    await confirm(b.id);
    const credited = await first.app.get(WalletService).addCredits(m.wallets.TEST, {
      sourceId: b.id,
      source: 'purchase',
      sms: 1000,
      reason: `Checkout ${b.id} (pkg_starter)`,
    });
    expect(credited.ok).toBe(true);

    // Paid but not credited is still pending, never succeeded.
    expect(
      (await first.request('GET', `/v1/billing/checkout/${a.id}`, { key: m.testKey })).body,
    ).toMatchObject({ status: 'pending', sms: 0 });
    const dataDir = first.dataDir;
    await first.close();

    second = await startTestApp({ dataDir });
    const app = second;
    for (const c of [a, b]) {
      const read = await eventually(
        async () => {
          const r = await app.request('GET', `/v1/billing/checkout/${c.id}`, { key: m.testKey });
          return r.body.status === 'succeeded' ? r : undefined;
        },
        30_000,
        `checkout ${c.id} succeeded after restart`,
      );
      expect(read.body.sms).toBe(1000);
    }
    expect(await smsLeft(app, m.testKey)).toBe(100 + 2 * 1000);
    expect(await purchaseCredits(app, m.testKey, a.id)).toEqual([{ sms: 1000 }]);
    expect(await purchaseCredits(app, m.testKey, b.id)).toEqual([{ sms: 1000 }]);
    const stream = await app.app.get<EventStore>(EVENT_STORE).readStream(checkoutStream(a.id));
    expect(stream.map((e) => e.type)).toEqual(['CheckoutStarted', 'PaymentConfirmed', 'CheckoutSucceeded']);
  });
});
