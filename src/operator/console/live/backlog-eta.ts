// How long until the backlog drains at the CRM budget, per priority class. Pure.
// Model: nothing new arrives; every backlog item is one call; a window frees `limit` calls.
// While both classes wait, bulk keeps its guaranteed share and interactive takes the rest;
// once interactive is empty, bulk gets the whole budget. A shared 429 pause delays both.

export interface EtaInput {
  backlog: { interactive: number; bulk: number };
  limit: number;
  windowMs: number;
  /** 0..1: share of the limit bulk keeps while interactive work waits. */
  bulkMinShare: number;
  /** Calls already counting in the window: capacity that is not free right now. */
  usedInWindow: number;
  /** ms until a CRM 429 pause ends (0 if none). */
  pauseRemainingMs: number;
}

export interface Eta {
  interactiveMs: number;
  bulkMs: number;
}

export function backlogEta(input: EtaInput): Eta {
  const { limit, windowMs, bulkMinShare } = input;
  const I = Math.max(0, input.backlog.interactive);
  const B = Math.max(0, input.backlog.bulk);
  const rate = limit / windowMs; // calls per ms at the budget
  const free = Math.max(0, limit - input.usedInWindow); // usable at once
  const start = Math.max(0, input.pauseRemainingMs);
  const bulkRate = B > 0 && I > 0 ? Math.floor(bulkMinShare * limit) / windowMs : 0;
  const interactiveRate = rate - bulkRate;
  // Interactive goes first into the free slots, then drains at its rate.
  const iAfterFree = Math.max(0, I - free);
  const interactiveMs = I === 0 ? 0 : start + iAfterFree / interactiveRate;
  // Bulk: what its share did meanwhile, then the full rate for the rest.
  const freeForBulk = Math.max(0, free - I);
  const bulkDuringInteractive = Math.min(B, freeForBulk + bulkRate * (interactiveMs - start));
  const rest = B - bulkDuringInteractive;
  const bulkMs =
    B === 0
      ? 0
      : rest <= 0
        ? start + (bulkRate > 0 ? Math.max(0, B - freeForBulk) / bulkRate : 0)
        : Math.max(interactiveMs, start) + rest / rate;
  return { interactiveMs: Math.ceil(interactiveMs), bulkMs: Math.ceil(bulkMs) };
}

export function formatDuration(ms: number): string {
  if (ms <= 0) return 'now';
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  return `${(m / 60).toFixed(1)} h`;
}
