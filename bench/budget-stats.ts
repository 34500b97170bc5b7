// Pure statistics of the budget benchmark, over the arrival times the sandbox saw.

export interface Arrival {
  at: number; // ms, one clock for the whole run (the sandbox's process)
  kind: 'bulk' | 'interactive' | 'other';
  status?: number;
}

export interface WindowRow {
  index: number;
  calls: number; // admitted (not 429)
  bulk: number;
  interactive: number;
  refused429: number;
}

/** Consecutive windows of `windowMs` from the first arrival; `full` ones ended before the backlog ran dry. */
export function windowRows(
  arrivals: Arrival[],
  windowMs: number,
  fullUntil: number,
): { rows: WindowRow[]; full: number } {
  if (arrivals.length === 0) return { rows: [], full: 0 };
  const t0 = Math.min(...arrivals.map((a) => a.at));
  const rows: WindowRow[] = [];
  for (const a of arrivals) {
    const index = Math.floor((a.at - t0) / windowMs);
    while (rows.length <= index)
      rows.push({ index: rows.length, calls: 0, bulk: 0, interactive: 0, refused429: 0 });
    const row = rows[index];
    if (a.status === 429) {
      row.refused429++;
      continue;
    }
    row.calls++;
    if (a.kind === 'bulk') row.bulk++;
    if (a.kind === 'interactive') row.interactive++;
  }
  const full = rows.filter((r) => t0 + (r.index + 1) * windowMs <= fullUntil).length;
  return { rows, full };
}

/** Most requests in any window (t - windowMs, t], the sandbox's own rule. */
export function maxInSlidingWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/**
 * How close the run came to the limit: min over i of (t[i] - t[i - limit]) - windowMs.
 * Negative means some window held more than `limit` calls.
 */
export function slotHeadroom(times: number[], limit: number, windowMs: number): { min: number } | undefined {
  const sorted = [...times].sort((a, b) => a - b);
  let min = Infinity;
  for (let i = limit; i < sorted.length; i++) min = Math.min(min, sorted[i] - sorted[i - limit] - windowMs);
  return Number.isFinite(min) ? { min } : undefined;
}
