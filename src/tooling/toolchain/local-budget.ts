// The CLI's side of the CRM budget: one process, calls in sequence, so a sliding window over the
// start times of the last `limit` calls is exact. The engine shares its budget through Redis
// (crm/rate-budget.ts); the CLI runs where there is no Redis and must stay inside the same limit.
import type { BudgetGrant } from '../../outbound/crm-gateway/budget-gate';

export interface LocalBudget {
  acquire(): Promise<BudgetGrant>;
  /** A 429: nobody calls before `ms` from now. */
  pause(ms: number): Promise<void>;
}

export function localBudget(
  limit: number,
  windowMs: number,
  sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  now = () => Date.now(),
): LocalBudget {
  const starts: number[] = [];
  let pausedUntil = 0;
  return {
    async acquire() {
      const asked = now();
      for (;;) {
        const t = now();
        while (starts.length > 0 && starts[0] <= t - windowMs) starts.shift();
        const freeAt = Math.max(pausedUntil, starts.length >= limit ? starts[0] + windowMs : t);
        if (freeAt <= t) break;
        await sleep(freeAt - t);
      }
      starts.push(now());
      return { waitedMs: now() - asked, release: async () => undefined };
    },
    async pause(ms: number) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}
