// The one statement that starts the embedded demo on a clean slate. The embedded sandbox keeps its
// CRM in memory and is born anew at every `npm start`; what Postgres learnt from the previous one
// (mirrored contacts, segment members, runs and their ledger, deliveries, the webhook subscription)
// names contacts and ids that no longer exist, so the dormant sweep would report "entered 0" and
// the console would show ghosts. Operator decisions (rule pause / shadow, their audit) are kept.
// Only embedded-demo.ts calls it, and only on a database the demo marked (demo-database.ts).
import type { Client } from 'pg';
import type { Queryable } from '../../persistence/sql/queryable';

/** Tables whose rows describe the CRM the engine talks to, or work done against it. */
export const CRM_DERIVED_TABLES = [
  'contact_mirror',
  'contact_mirror_tombstones',
  'contact_mirror_state',
  'segment_memberships',
  'segment_rule_state',
  'segment_sweeps',
  'action_results',
  'enrollments',
  'runs',
  'inbox_events',
  'contact_journal',
  'contact_leases',
  'webhook_subscriptions',
] as const;

/** A pg Client as the demo's repositories read it: rows, as over a DataSource (pg answers a Result). */
export function rowsOver(client: Client): Queryable {
  return { query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows };
}

export class DemoStateRepository {
  constructor(private readonly db: Queryable) {}

  /** `fn` in one transaction: the marker's check, its write and the clean-up commit together. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.db.query('BEGIN');
    try {
      const result = await fn();
      await this.db.query('COMMIT');
      return result;
    } catch (err) {
      await this.db.query('ROLLBACK');
      throw err;
    }
  }

  /** The CRM-derived tables holding at least one row (one statement). */
  async tablesWithRows(): Promise<string[]> {
    const rows: { t: string }[] = await this.db.query(
      CRM_DERIVED_TABLES.map((t) => `SELECT '${t}' AS t WHERE EXISTS (SELECT 1 FROM ${t})`).join(
        ' UNION ALL ',
      ),
    );
    return rows.map((r) => r.t);
  }

  /** Empties every CRM-derived table in one statement (no CASCADE: a table this list misses fails loudly). */
  async forgetPreviousSandbox(): Promise<void> {
    await this.db.query(`TRUNCATE ${CRM_DERIVED_TABLES.join(', ')} RESTART IDENTITY`);
  }
}
