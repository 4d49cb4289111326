/**
 * How the delivery worker shares its slots: one item from each list in turn (round robin),
 * at most `limit` in all, so no list (a wallet, an endpoint) takes every slot before the
 * others had one. Pure, for the worker and its tests.
 */
export function roundRobin<T>(lists: readonly (readonly T[])[], limit: number): T[] {
  const out: T[] = [];
  for (let i = 0; out.length < limit; i++) {
    let took = false;
    for (const list of lists) {
      if (i >= list.length) continue;
      out.push(list[i]);
      took = true;
      if (out.length >= limit) break;
    }
    if (!took) break;
  }
  return out;
}

/**
 * The ids in order, starting with the first one after `after` (wrapping around): which wallet is
 * served first moves on every tick, so scarce slots are not always offered to the same wallets.
 */
export function rotateAfter(sortedIds: readonly string[], after: string | null): string[] {
  if (after === null) return [...sortedIds];
  const start = sortedIds.findIndex((id) => id > after);
  if (start <= 0) return [...sortedIds];
  return [...sortedIds.slice(start), ...sortedIds.slice(0, start)];
}
