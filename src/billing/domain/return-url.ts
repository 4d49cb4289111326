import { DomainError, invalid } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';

const MAX_URL_LENGTH = 2048;

/**
 * Where a shopper's browser goes back to (the merchant's own page): an absolute http(s) URL, as
 * given, without control characters or surrounding spaces, at most 2,048 characters.
 */
export function parseReturnUrl(value: string, param: string): Result<string, DomainError> {
  const refuse = () =>
    err(
      invalid(
        'invalid_url',
        `${param} must be an absolute http or https URL, such as https://shop.example/paid`,
        param,
      ),
    );
  const hasControl = [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
  if (value.length > MAX_URL_LENGTH || value.trim() !== value || hasControl) return refuse();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return refuse();
  // e.g. "http:shop.example" parses but is not absolute as written
  if (!/^https?:\/\//i.test(value)) return refuse();
  return ok(value);
}
