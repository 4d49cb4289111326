import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a webhook from the SMS wallet service. Pass the raw request body exactly as
 * received (a string or Buffer, before any JSON parsing), the Sms-Signature header and the
 * endpoint's whsec_… secret. Returns false for a bad signature or a t older than 5 minutes.
 */
export function verifyWebhook(
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  secret: string,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!signatureHeader) return false;
  const parts = new Map<string, string[]>();
  for (const item of signatureHeader.split(',')) {
    const [key, value] = item.split('=', 2).map((s) => s.trim());
    if (key && value) parts.set(key, [...(parts.get(key) ?? []), value]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret)
    .update(`${t}.`)
    .update(rawBody)
    .digest();
  return (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
