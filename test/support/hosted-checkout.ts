import type { TestApp } from './test-app';

/** What the shopper's browser gets from a hosted checkout page (redirects are not followed). */
export interface PageResponse {
  readonly status: number;
  readonly location: string | null;
  readonly html: string;
  readonly headers: Headers;
}

/** The hosted page path of a checkout (checkout_url is on PUBLIC_URL; tests talk to the bound port). */
export const pathOf = (checkoutUrl: string) => new URL(checkoutUrl).pathname;

export async function openPage(t: TestApp, path: string): Promise<PageResponse> {
  const response = await fetch(`${t.baseUrl}${path}`, { redirect: 'manual' });
  return {
    status: response.status,
    location: response.headers.get('location'),
    html: await response.text(),
    headers: response.headers,
  };
}

/** Submits one of the page's plain HTML forms, as a browser without JavaScript would. */
export async function submitForm(
  t: TestApp,
  path: string,
  fields: Record<string, string> = {},
): Promise<PageResponse> {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    html: await response.text(),
    headers: response.headers,
  };
}

/** Starts a checkout over the API with a key. */
export async function startCheckout(
  t: TestApp,
  key: string,
  body: Record<string, unknown> = {
    package_id: 'pkg_starter',
    success_url: 'https://shop.example/paid?order=42&lang=en#done',
  },
) {
  const response = await t.request('POST', '/v1/billing/checkout', { key, body });
  if (response.status !== 200)
    throw new Error(`checkout start answered ${response.status}: ${response.text}`);
  return response.body as {
    id: string;
    status: string;
    checkout_url: string;
    amount: number;
    currency: string;
    sms: number;
    success_url: string;
    cancel_url: string | null;
    expires_at: string;
  };
}

export async function smsLeft(t: TestApp, key: string): Promise<number> {
  const response = await t.request('GET', '/v1/billing', { key });
  return response.body.sms_left as number;
}

/** CreditsAdded events on the key's wallet that came from this checkout. */
export async function purchaseCredits(
  t: TestApp,
  key: string,
  checkoutId: string,
): Promise<Array<{ sms: number }>> {
  const found: Array<{ sms: number }> = [];
  let after: number | null = null;
  for (;;) {
    const query: string = after === null ? '?limit=100' : `?limit=100&after=${after}`;
    const response = await t.request('GET', `/v1/wallet/events${query}`, { key });
    for (const e of response.body.data) {
      if (e.type === 'CreditsAdded' && e.data.sourceId === checkoutId) found.push({ sms: e.data.sms });
      after = e.revision;
    }
    if (!response.body.has_more) return found;
  }
}
