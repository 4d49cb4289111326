import { invalid } from '../domain-error';

/** `limit` as API.md lists take it: 1..max, default 20 unless said otherwise. */
export function parseLimit(raw: unknown, fallback = 20, max = 100): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || value < 1 || value > max) {
    throw invalid('invalid_limit', `limit must be a whole number from 1 to ${max}`, 'limit');
  }
  return value;
}

export interface ListPage<T> {
  readonly object: 'list';
  readonly data: readonly T[];
  readonly has_more: boolean;
}

/** Builds a page from `limit + 1` fetched items: the extra one only says whether more exist. */
export function page<T>(items: readonly T[], limit: number): ListPage<T> {
  return { object: 'list', data: items.slice(0, limit), has_more: items.length > limit };
}
