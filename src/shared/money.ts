/** A whole number for people: "20,000" (thousand separators, as the console and checkout show counts). */
export const formatCount = (n: number): string => Math.trunc(n).toLocaleString('en-US');

/** Integer minor units as "GHS 1,234.50" (two decimal places, as GHS, NGN, USD and most others). */
export function formatMoney(amount: number, currency: string): string {
  const negative = amount < 0;
  const abs = Math.abs(Math.trunc(amount));
  const major = formatCount(Math.floor(abs / 100));
  const minor = String(abs % 100).padStart(2, '0');
  return `${currency.toUpperCase()} ${negative ? '-' : ''}${major}.${minor}`;
}
