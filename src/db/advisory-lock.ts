// Postgres session advisory locks on a dedicated connection: held for the whole of a sweep, a
// mirror refresh or a contact's action run, released by Postgres itself if the process dies (the
// connection closes), so a crashed worker never leaves a stale lock behind.
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
/** The contact id itself, as round 1 keyed it: old and new workers exclude each other during a deploy. */
export const contactLockKey = (contactId: string) => contactId;
