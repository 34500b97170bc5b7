// Counts for the overview and the budget page (to move into the ledger's repositories).
import type { DataSource } from 'typeorm';

export type CountsByStatus = Record<string, number>;

export async function countRunsByStatus(db: DataSource, since: Date): Promise<CountsByStatus> {
  const rows: { status: string; n: number }[] = await db.query(
    `SELECT CASE WHEN status = 'suppressed' AND reason = 'paused' THEN 'paused' ELSE status END AS status, count(*)::int AS n
       FROM runs WHERE created_at >= $1 GROUP BY 1`,
    [since],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export async function countActionsByStatus(db: DataSource, since: Date): Promise<CountsByStatus> {
  const rows: { status: string; n: number }[] = await db.query(
    `SELECT a.status, count(*)::int AS n FROM action_results a JOIN runs r ON r.id = a.run_id
      WHERE r.created_at >= $1 GROUP BY a.status`,
    [since],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Actions still to be executed, by gateway priority: each is (at least) one CRM call ahead. */
export async function countPendingActionsByPriority(
  db: DataSource,
): Promise<{ interactive: number; bulk: number }> {
  const rows: { priority: 'interactive' | 'bulk'; n: number }[] = await db.query(
    `SELECT CASE WHEN r.trigger_key LIKE 'sweep%' THEN 'bulk' ELSE 'interactive' END AS priority, count(*)::int AS n
       FROM action_results a JOIN runs r ON r.id = a.run_id
      WHERE a.status IN ('pending', 'running') GROUP BY 1`,
  );
  const out = { interactive: 0, bulk: 0 };
  for (const r of rows) out[r.priority] = r.n;
  return out;
}
