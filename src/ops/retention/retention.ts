// Pure parts of retention: where the cutoff falls and how a prune proceeds in batches. No Nest.

export const RETENTION_QUEUE = 'retention';
/** Daily, at a quiet hour; one job per tick whatever the number of scheduler processes. */
export const RETENTION_CRON = '17 3 * * *';
export const RETENTION_SCHEDULER_ID = 'retention-daily';
/** Rows per statement: short transactions, no long lock on the ledger tables. */
export const RETENTION_BATCH = 1_000;

export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
}

/** Calls `deleteBatch` until a batch comes back short; returns how many rows went in all. */
export async function pruneInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  batchSize = RETENTION_BATCH,
  maxBatches = 10_000,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteBatch(batchSize);
    total += n;
    if (n < batchSize) break;
  }
  return total;
}
