// The one owner of Postgres session advisory locks (no table: the lock namespace and its
// statements). Each is taken on a dedicated connection and held for the whole of a sweep or a
// mirror refresh (a few at a time, so the connection each pins is affordable), released by Postgres
// itself if the process dies (the connection closes), so a crashed worker never leaves a stale lock
// behind. A contact's action run takes a lease row instead (src/pipeline/execution/contact-lease.ts): there
// can be one per job, and a job may wait minutes for CRM budget.
import type { DataSource, QueryRunner } from 'typeorm';

export type LockOutcome<T> = { acquired: true; value: T } | { acquired: false };

/**
 * Runs `fn` while holding the lock `key`, on the connection that holds it (`fn` may use it: its
 * statements then need no second pool connection). `wait: false` gives up at once when another
 * session holds the lock (pg_try_advisory_lock); `wait: true` queues behind the holder.
 */
export async function withAdvisoryLock<T>(
  dataSource: DataSource,
  key: string,
  wait: boolean,
  fn: (connection: QueryRunner) => Promise<T>,
): Promise<LockOutcome<T>> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    if (wait) {
      await runner.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [key]);
    } else {
      const [{ locked }] = await runner.query(
        `SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`,
        [key],
      );
      if (!locked) return { acquired: false };
    }
    try {
      return { acquired: true, value: await fn(runner) };
    } finally {
      await runner.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [key]).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

export const sweepLockKey = (ruleId: string) => `crmr:segment-sweep:${ruleId}`;
export const MIRROR_LOCK_KEY = 'crmr:contact-mirror-refresh';
