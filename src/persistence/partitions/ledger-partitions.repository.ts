// The DDL of the ledger's daily partitions: create days ahead, list a table's children, count the
// rows a day still must keep, detach and drop a day. Names come from ledger-partitions.ts and are
// checked as plain identifiers (DDL takes no bound parameters).
import type { DataSource } from 'typeorm';
import { assertIdentifier, parsePartitionName, type DailyPartition } from './ledger-partitions';

/**
 * Creating or detaching a partition locks its parent against every write, and the DEFAULT
 * partition whole: the DDL must not queue the writers behind it for long. The timeout is also below
 * Postgres' deadlock_timeout (1 s by default), so when the DDL and a writer wait on each other the
 * DDL gives up first, and the writer never sees "deadlock detected". A day given up is made on a
 * later try (isLockBusy; days are created 3 ahead, the DEFAULT partition takes rows meanwhile).
 */
const LOCK_TIMEOUT = `SET LOCAL lock_timeout = '200ms'`;
/** Postgres' lock_not_available: a lock the DDL waited for past LOCK_TIMEOUT. */
const LOCK_NOT_AVAILABLE = '55P03';

/** The DDL gave way to writers (LOCK_TIMEOUT): try again later, nothing was changed. */
export const isLockBusy = (err: unknown) => (err as { code?: string }).code === LOCK_NOT_AVAILABLE;

/** "updated partition constraint for default partition would be violated by some row". */
const CHECK_VIOLATION = '23514';

/**
 * The locks a partition's DDL needs, taken before it and in one round trip with it, so that the DDL
 * never holds a lock while it waits for long (the timeout argument above needs that):
 *
 * - The tables in the writers' order (a run, then its action results): a partition of a table in a
 *   foreign key locks the other table too (its triggers change), so taken the other way round a
 *   run's transaction holding `runs` and waiting for `action_results` and the DDL holding
 *   `action_results` and waiting for `runs` would deadlock (seen: a manual run's 500).
 * - The tables the DDL changes in ACCESS EXCLUSIVE at once, the others in SHARE ROW EXCLUSIVE
 *   (what the foreign key's triggers need). Never a weaker lock raised later: a DDL holding
 *   `runs` in SHARE ROW EXCLUSIVE and waiting to raise it made a reader's next write (retry-dead:
 *   read runs, then update them) fail with "deadlock detected" at its first request (seen in the
 *   request fuzz). Queued for ACCESS EXCLUSIVE while holding nothing of the table, the DDL lets
 *   such a write go ahead of it.
 */
function ddlLocks(tables: readonly string[], changed: readonly string[]): string {
  const modes = tables.map(
    (t) =>
      `LOCK TABLE ${assertIdentifier(t)} IN ${changed.includes(t) ? 'ACCESS EXCLUSIVE' : 'SHARE ROW EXCLUSIVE'} MODE`,
  );
  return [LOCK_TIMEOUT, ...modes].join(';\n');
}

export interface PartitionState {
  name: string;
  /** Null for a child that is not a day (the DEFAULT, an attached legacy table). */
  from: Date | null;
  to: Date | null;
  /** The upper bound of any range child (a day's `to`, the legacy past's end); null for the DEFAULT. */
  upTo: Date | null;
  bytes: number;
}

export class LedgerPartitionsRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Creates the days that are missing; an existing day is left as it is. Returns the days that
   * could not be made because the DEFAULT partition already holds rows of them (a row dated days
   * ahead, e.g. a contact version from a CRM clock that runs fast): those rows stay in the DEFAULT,
   * pruned by rows, and the day is not created.
   */
  async createDays(
    parent: string,
    days: readonly DailyPartition[],
    lockFirst: readonly string[] = [],
  ): Promise<string[]> {
    assertIdentifier(parent);
    const blocked: string[] = [];
    for (const d of days) {
      // A day that exists is passed over before any lock: every tick names days made long ago, and
      // the locks below would hold the writers back for nothing.
      const [{ found }] = await this.db.query(`SELECT to_regclass($1) IS NOT NULL AS found`, [d.name]);
      if (found) continue;
      try {
        // One round trip (several statements, no parameters): no client pause between the locks.
        await this.db.transaction((tx) =>
          tx.query(
            `${ddlLocks(lockFirst.length ? lockFirst : [parent], [parent])};
             CREATE TABLE IF NOT EXISTS ${assertIdentifier(d.name)} PARTITION OF ${parent}
               FOR VALUES FROM ('${d.from.toISOString()}') TO ('${d.to.toISOString()}')`,
          ),
        );
      } catch (err) {
        if ((err as { code?: string }).code !== CHECK_VIOLATION) throw err;
        blocked.push(d.name);
      }
    }
    return blocked;
  }

  /** Every child of a partitioned table with its size on disk (indexes and TOAST included). */
  async children(parent: string): Promise<PartitionState[]> {
    const rows: { name: string; bytes: string; bound: string }[] = await this.db.query(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid)::bigint AS bytes,
              pg_get_expr(c.relpartbound, c.oid) AS bound
         FROM pg_inherits i
         JOIN pg_class c ON c.oid = i.inhrelid
         JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname = $1 AND p.relnamespace = 'public'::regnamespace
        ORDER BY c.relname`,
      [parent],
    );
    return rows.map((r) => {
      const day = parsePartitionName(r.name);
      const upTo = / TO \('([^']+)'\)/.exec(r.bound)?.[1];
      return {
        name: r.name,
        from: day?.from ?? null,
        to: day?.to ?? null,
        upTo: upTo ? new Date(upTo) : null,
        bytes: Number(r.bytes),
      };
    });
  }

  /**
   * How many rows of one child match `keep` (a fixed predicate of the caller's, e.g. unfinished
   * runs): a day that still holds one is not dropped.
   */
  async countKept(partition: string, keep: string): Promise<number> {
    const rows: { n: string }[] = await this.db.query(
      `SELECT count(*) AS n FROM ${assertIdentifier(partition)} WHERE ${keep}`,
    );
    return Number(rows[0].n);
  }

  /**
   * Detaches and drops children in one transaction, in the order given (referencing tables
   * first: a run's day cannot go while its action results' day still points at it); a child that
   * does not exist is passed over.
   */
  async dropChildren(
    children: readonly { parent: string; name: string }[],
    lockFirst: readonly string[] = [],
  ): Promise<void> {
    // A dependent's day may never have been made (created ahead only since its table was).
    const found: { name: string }[] = await this.db.query(
      `SELECT n AS name FROM unnest($1::text[]) n WHERE to_regclass(n) IS NOT NULL`,
      [children.map((c) => c.name)],
    );
    const present = children.filter((c) => found.some((f) => f.name === c.name));
    if (!present.length) return;
    const parents = [...new Set(present.map((c) => assertIdentifier(c.parent)))];
    const statements = present.map(
      (c) =>
        `ALTER TABLE ${assertIdentifier(c.parent)} DETACH PARTITION ${assertIdentifier(c.name)};
         DROP TABLE ${assertIdentifier(c.name)}`,
    );
    // One round trip, as createDays: the locks first, no client pause between them.
    await this.db.transaction((tx) =>
      tx.query(`${ddlLocks(lockFirst.length ? lockFirst : parents, parents)};\n${statements.join(';\n')}`),
    );
  }
}
