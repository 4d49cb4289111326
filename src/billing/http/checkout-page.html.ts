/** Server-rendered hosted checkout pages: plain HTML forms, no JavaScript, no external assets. */
import { createHash } from 'node:crypto';
import { formatMoney } from '../../shared/money';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => HTML_ESCAPES[c]);
}

/** `url` with checkout_id=… added to its query; its other parameters and fragment are kept as they are. */
export function withCheckoutId(url: string, checkoutId: string): string {
  const target = new URL(url);
  if (target.searchParams.has('checkout_id')) {
    target.searchParams.set('checkout_id', checkoutId);
  } else {
    const pair = `checkout_id=${encodeURIComponent(checkoutId)}`;
    target.search = target.search.length > 1 ? `${target.search}&${pair}` : `?${pair}`;
  }
  return target.toString();
}

/** The host the shopper goes back to, shown so they know where they came from. */
export function returnHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.3rem;margin:0 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem;margin:0 0 1.25rem}
dt{color:#5b6475}dd{margin:0;text-align:right;font-weight:600}
.amount{font-size:1.6rem}
form{margin:.6rem 0 0}
button,.button{display:block;width:100%;padding:.85rem 1rem;border:0;border-radius:8px;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
.primary{background:#0b6bcb;color:#fff}.secondary{background:#e8ebf0;color:#1d2330}
.note{color:#5b6475;font-size:.9rem;margin-top:1rem}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:999px;background:#fff3cd;color:#7a5b00;font-size:.8rem;font-weight:600}
`;

/**
 * The CSP source that allows exactly the pages' one inline <style> block (and nothing else
 * inline): the pages stay self-contained without `style-src 'unsafe-inline'`.
 */
export const PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

export interface PageOptions {
  readonly title: string;
  /** Already-escaped HTML of the card. */
  readonly body: string;
  /** Reload after this many seconds (a processing page), without JavaScript. */
  readonly refreshSeconds?: number;
}

export function page({ title, body, refreshSeconds }: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">\n` : ''}<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body><main><div class="card">
${body}
</div></main></body>
</html>`;
}

export interface CheckoutSummary {
  readonly checkoutId: string;
  readonly packageName: string;
  readonly sms: number;
  readonly amount: number;
  readonly currency: string;
  readonly returnHost: string;
  readonly environment: 'TEST' | 'LIVE';
}

function summary(s: CheckoutSummary): string {
  return `<dl>
<dt>Package</dt><dd>${escapeHtml(s.packageName)}</dd>
<dt>SMS credits</dt><dd>${escapeHtml(s.sms.toLocaleString('en-US'))}</dd>
<dt>Amount</dt><dd class="amount">${escapeHtml(formatMoney(s.amount, s.currency))}</dd>
<dt>Merchant</dt><dd>${escapeHtml(s.returnHost)}</dd>
</dl>`;
}

const form = (action: string, label: string, kind: 'primary' | 'secondary') =>
  `<form method="post" action="${escapeHtml(action)}"><button type="submit" class="${kind}">${escapeHtml(label)}</button></form>`;

export function payPage(s: CheckoutSummary): string {
  const base = `/checkout/${encodeURIComponent(s.checkoutId)}`;
  const test = s.environment === 'TEST';
  const actions = test
    ? form(`${base}/pay`, `Pay ${formatMoney(s.amount, s.currency)}`, 'primary') +
      form(`${base}/decline`, 'Decline', 'secondary')
    : form(`${base}/start`, `Pay ${formatMoney(s.amount, s.currency)} with Paystack`, 'primary') +
      form(`${base}/decline`, 'Cancel', 'secondary');
  return page({
    title: `Pay ${formatMoney(s.amount, s.currency)}`,
    body: `<h1>Buy SMS credits ${test ? '<span class="badge">TEST</span>' : ''}</h1>
${summary(s)}
${actions}
<p class="note">${test ? 'Test mode: no real money moves. Pay or Decline to try both outcomes.' : 'You will pay securely on Paystack and come back here.'}</p>`,
  });
}

export function messagePage(
  title: string,
  message: string,
  options: {
    link?: { href: string; label: string };
    summary?: CheckoutSummary;
    refreshSeconds?: number;
  } = {},
): string {
  const link = options.link
    ? `<a class="button primary" href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.label)}</a>`
    : '';
  return page({
    title,
    refreshSeconds: options.refreshSeconds,
    body: `<h1>${escapeHtml(title)}</h1>
${options.summary ? summary(options.summary) : ''}
<p>${escapeHtml(message)}</p>
${link}`,
  });
}
