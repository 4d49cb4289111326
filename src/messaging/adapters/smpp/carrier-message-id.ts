/**
 * Carrier message ids. A carrier may answer submit_sm with a hex id ("A1B2C3") and write the
 * same id in decimal ("10597059") in its receipt, or pad it with zeros, or change its case.
 *
 * The adapter reports submit ids in canonical form (hex-looking ids uppercased with leading
 * zeros stripped, anything else as written) and lists, for each receipt, every canonical
 * spelling the receipt id may stand for. Candidates come in preference order: the id as
 * written, its canonical form, then the other base's spellings; a sink should take the first
 * candidate it knows.
 */
const HEX_DIGITS = /^[0-9a-f]+$/i;
const DECIMAL_DIGITS = /^\d+$/;
const MAX_NUMERIC_LENGTH = 64;

export function canonicalCarrierMessageId(id: string): string {
  const trimmed = id.trim();
  if (HEX_DIGITS.test(trimmed)) return trimmed.replace(/^0+(?=.)/, '').toUpperCase();
  return trimmed;
}

export function carrierMessageIdCandidates(id: string): string[] {
  const written = id.trim();
  const candidates: string[] = [];
  const add = (candidate: string): void => {
    if (candidate !== '' && !candidates.includes(candidate)) candidates.push(candidate);
  };
  add(written);
  add(canonicalCarrierMessageId(written));
  if (written.length <= MAX_NUMERIC_LENGTH) {
    if (DECIMAL_DIGITS.test(written)) add(BigInt(written).toString(16).toUpperCase());
    if (HEX_DIGITS.test(written)) add(BigInt(`0x${written}`).toString(10));
  }
  return candidates;
}
