import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * An address as a carrier wrote it on an inbound message: the text, and the type of number
 * (TON) and numbering plan (NPI) it gave with it (SMPP 3.4 §5.2.5–6; null when not given).
 */
export interface SmsAddress {
  readonly address: string;
  readonly ton: number | null;
  readonly npi: number | null;
}

/**
 * What an inbound address is: an E.164 number (`+` and 8–15 digits), a short code (3–8 digits),
 * or anything else, kept as text only: it is shown with the message but never becomes a number
 * anywhere (an opt-out, a number look-up).
 */
export type InboundAddress =
  | { readonly kind: 'number'; readonly value: string }
  | { readonly kind: 'short_code'; readonly value: string }
  | { readonly kind: 'text'; readonly value: string };

/** SMPP type of number. */
const TON = {
  UNKNOWN: 0,
  INTERNATIONAL: 1,
  NATIONAL: 2,
  NETWORK_SPECIFIC: 3,
  SUBSCRIBER: 4,
  ALPHANUMERIC: 5,
  ABBREVIATED: 6,
} as const;

const INTERNATIONAL_DIGITS = /^[1-9]\d{7,14}$/;
const SHORT_CODE = /^\d{3,8}$/;
const ADDRESS_CHARACTERS = /^\+?\d+$/;

/**
 * Reads an inbound address by its TON and, for a national number, the country of the route it
 * came in on (`countryCallingCode`, such as `233`): `0241234597` from a Ghana route is
 * +233241234597, as is `233241234597` written internationally. Without a TON (or TON unknown) the
 * address says what it is the way people write them: a leading `+` or `00` is international, 3–8
 * digits a short code, a leading trunk `0` national, other digits international (how SMSCs write
 * international numbers without their plus). A national number without a known country, letters,
 * markup, anything that is not digits is text.
 */
export function readInboundAddress(address: SmsAddress, countryCallingCode: string | null): InboundAddress {
  const written = address.address.trim();
  const text: InboundAddress = { kind: 'text', value: written };
  if (address.ton === TON.ALPHANUMERIC || !ADDRESS_CHARACTERS.test(written)) return text;
  const plus = written.startsWith('+');
  const digits = plus ? written.slice(1) : written;
  const ton = plus ? TON.INTERNATIONAL : address.ton;
  const international = (d: string): InboundAddress =>
    INTERNATIONAL_DIGITS.test(d) ? { kind: 'number', value: `+${d}` } : text;
  const national = (d: string): InboundAddress => {
    if (countryCallingCode === null) return text;
    const parsed = parsePhoneNumberFromString(d, { defaultCallingCode: countryCallingCode });
    return parsed?.isPossible() && INTERNATIONAL_DIGITS.test(parsed.number.slice(1))
      ? { kind: 'number', value: parsed.number }
      : text;
  };
  const shortCode = (d: string): InboundAddress | null =>
    SHORT_CODE.test(d) ? { kind: 'short_code', value: d } : null;

  switch (ton) {
    case TON.INTERNATIONAL:
      return international(digits);
    case TON.NATIONAL:
    case TON.SUBSCRIBER:
      return national(digits);
    case TON.ABBREVIATED:
      return shortCode(digits) ?? text;
    default:
      // Unknown, network-specific or absent: what the digits themselves say.
      if (digits.startsWith('00')) return international(digits.slice(2));
      return shortCode(digits) ?? (digits.startsWith('0') ? national(digits) : international(digits));
  }
}

/** An address already known to be an E.164 number or a short code (the sandbox's), as SMPP would write it. */
export const writtenAddress = (numberOrShortCode: string): SmsAddress =>
  numberOrShortCode.startsWith('+')
    ? { address: numberOrShortCode, ton: TON.INTERNATIONAL, npi: 1 }
    : { address: numberOrShortCode, ton: TON.ABBREVIATED, npi: 0 };

/**
 * The number an opt-out may be kept for: an inbound's sender read as a number. Inbound messages
 * recorded before senders were read by TON (no `fromKind`) count only when `from` is a plausible
 * E.164 number (a `+0…` or a formula never is).
 */
export function optOutNumberOf(data: {
  readonly from: string;
  readonly fromKind?: InboundAddress['kind'];
}): string | null {
  if (data.fromKind !== undefined) return data.fromKind === 'number' ? data.from : null;
  return /^\+[1-9]\d{7,14}$/.test(data.from) ? data.from : null;
}
