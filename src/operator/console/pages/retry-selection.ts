// Which runs a "Retry" / "Retry all" confirmation carries: the first `cap` distinct runs of the
// matching actions (read with a limit of cap + 1 rows, so one more row says more match). Pure, so
// the cap and its notice are tested without a page.

export interface RetrySelection<T> {
  /** The ids the confirmation form carries; the confirmed post acts on these only. */
  runIds: string[];
  /** The matching actions of those runs, listed on the page. */
  shown: T[];
  /** More match than the form carries: the page says so. */
  more: boolean;
}

export function retrySelection<T extends { runId: string }>(
  matching: readonly T[],
  cap: number,
): RetrySelection<T> {
  const runIds = [...new Set(matching.map((a) => a.runId))].slice(0, cap);
  const carried = new Set(runIds);
  const shown = matching.filter((a) => carried.has(a.runId));
  return { runIds, shown, more: shown.length < matching.length || matching.length > cap };
}
