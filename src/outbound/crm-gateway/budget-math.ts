// Pure budget maths: when would a call queued now get its slot? Works on a BudgetState read
// atomically from Redis, so it is exact about the log and an estimate about the future
// (later interactive arrivals may still overtake a bulk call).
import type { BudgetParams, BudgetState, Priority } from './rate-budget';

/** Time at which the k-th slot (0-based) from now frees, if nobody else takes any. */
export function slotTimeMs(
  state: BudgetState,
  params: Pick<BudgetParams, 'limit' | 'windowMs' | 'marginMs'>,
  k: number,
): number {
  const { limit, windowMs, marginMs } = params;
  const cycle = windowMs + marginMs;
  const free = Math.max(0, limit - state.scores.length);
  // One entry per slot of the limit: free slots are usable now, busy ones when their call expires.
  const slots = [
    ...Array.from({ length: free }, () => state.now),
    ...state.scores.slice(0, limit).map((s) => Math.max(state.now, s + cycle)),
  ];
  const base = slots[k % limit];
  const laps = Math.floor(k / limit);
  // A slot reused `laps` times frees one full cycle after each previous use.
  return base + laps * cycle;
}

/** ETA in ms of a call of `priority` queued now behind everything already waiting. */
export function estimateWaitMs(state: BudgetState, params: BudgetParams, priority: Priority): number {
  const { limit, windowMs, bulkMinShare } = params;
  let at: number;
  if (priority === 'interactive') {
    at = slotTimeMs(state, params, state.waitingInteractive);
  } else {
    // Worst case every interactive waiter goes first; but bulk keeps its share of each window.
    const behindEveryone = slotTimeMs(state, params, state.waitingInteractive + state.waitingBulk);
    const shareSlots = Math.floor(bulkMinShare * limit);
    const byShare =
      state.waitingInteractive > 0 && shareSlots > 0
        ? state.now + Math.floor(state.waitingBulk / shareSlots) * windowMs
        : behindEveryone;
    const interval = windowMs / limit;
    const paced = Math.max(state.bulkTat, state.now) - params.bulkToleranceMs + state.waitingBulk * interval;
    at = Math.max(Math.min(behindEveryone, byShare), paced);
  }
  // A shared pause (a CRM 429) holds every call until it ends.
  return Math.max(0, Math.ceil(Math.max(at, state.pausedUntil) - state.now));
}
