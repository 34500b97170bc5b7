// "did you mean ...?" for typos in keys, event kinds, facts, operators and actions.

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The closest candidate when it is close enough to be a typo (case-insensitive). */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score = distance(w, c.toLowerCase());
    if (score < bestScore) [best, bestScore] = [c, score];
  }
  const tolerance = Math.max(2, Math.floor(word.length / 3));
  return best !== undefined && bestScore <= tolerance ? best : undefined;
}

/** ` (did you mean "x"?)` or ` (expected one of: a, b, c)` for short lists; '' otherwise. */
export function hint(word: string, candidates: readonly string[], listUpTo = 12): string {
  const near = closest(word, candidates);
  if (near) return ` (did you mean "${near}"?)`;
  return candidates.length <= listUpTo ? ` (expected one of: ${candidates.join(', ')})` : '';
}
