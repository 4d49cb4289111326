/** `sendAt`, `send-at` and `SEND_AT` are all `send_at`. */
const normalized = (word: string) =>
  word
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();

/**
 * Edits between two words: insertions, deletions, substitutions, and swaps of two neighbours
 * (`tpye`), each counting one (the optimal string alignment distance). Both words are short.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, before[j - 2] + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidate a mistyped word most likely meant, or null when none is close: at most a third of
 * the candidate's letters apart (at least one), after camelCase and dashes read as snake_case.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | null {
  // Words far longer than any candidate cannot be close; do not spend time on them.
  if (word.length > 64) return null;
  const typed = normalized(word);
  let best: { candidate: string; distance: number } | null = null;
  for (const candidate of candidates) {
    const distance = editDistance(typed, normalized(candidate));
    if (distance > Math.max(1, Math.floor(candidate.length / 3))) continue;
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate ?? null;
}
