// The partition DDL gives way to writers. Seen in CI: an events batch's transaction had read
// action results (a lock on every partition of the table, its DEFAULT included), then inserted
// runs; meanwhile the start created an action_results day, holding `runs` and waiting for the
// DEFAULT partition. Each waited on the other, and Postgres chose the writer ("deadlock
// detected": the event failed one attempt). The DDL's lock timeout (200 ms) is now below
// Postgres' deadlock_timeout (1 s), so in such a cycle the DDL gives up first; a later try makes
// the day. Here: a writer holds the DEFAULT partition and then writes runs; the DDL reports its
// tables busy, the writer commits, and the next try makes every day.
import type { QueryRunner } from 'typeorm';
import { eventually } from '../../support/polling';
import { createTestDb, type TestDb } from '../../support/test-db';
import {
  LedgerPartitionMaintenance,
  PartitionsBusyError,
} from '../../../src/persistence/partitions/ledger-partition-maintenance';
import { PARTITIONED_TABLES } from '../../../src/persistence/partitions/ledger-partitions';

const DAY_MS = 86_400_000;
/** Far past the days the migration and earlier tests made: every table's days are missing. */
const AHEAD = new Date(Date.now() + 40 * DAY_MS);

describe('partition DDL against a writer holding the tables the other way round', () => {
  let db: TestDb;
  let writer: QueryRunner;
  const runsAndResults = PARTITIONED_TABLES.filter((t) => ['runs', 'action_results'].includes(t.table));
  const maintenance = () => new LedgerPartitionMaintenance(db.dataSource, runsAndResults);
  const dayExists = async (name: string) =>
    (await db.dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS found`, [name]))[0].found as boolean;
  const stamp = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
  /** Until the DDL waits for a lock on one of `relations`, or has ended (given up or done). */
  const waitingOn = async (ddl: Promise<unknown>, relations: string[]) => {
    let settled = false;
    void ddl.finally(() => (settled = true));
    await eventually(
      async () =>
        settled ||
        (
          await db.dataSource.query(
            `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
              WHERE NOT l.granted AND c.relname = ANY($1)`,
            [relations],
          )
        ).length > 0,
      30_000,
      5,
    );
  };

  beforeAll(async () => {
    db = await createTestDb();
    writer = db.dataSource.createQueryRunner();
    await writer.connect();
  });
  afterAll(async () => {
    await writer?.release();
    await db?.drop();
  });

  it('the writer commits, the DDL says busy, and the next try makes the days', async () => {
    await writer.startTransaction();
    // The writer's first statement: a read of action results (locks the DEFAULT partition too).
    await writer.query(`SELECT count(*) FROM action_results`);
    const ddl = maintenance()
      .createAhead(AHEAD)
      .then(
        () => 'created',
        (err: unknown) => err,
      );
    // The DDL makes the runs days, then holds `runs` and waits for action_results (its DEFAULT partition).
    await waitingOn(ddl, ['action_results', 'action_results_default']);
    // The writer's second statement: an insert into runs, which the DDL holds (until it gives up).
    await writer.query(
      `INSERT INTO runs (trigger_key, trigger_at, rule_id, rule_version, rule_set_version, contact_id,
                         status, trace, actions, priority)
       VALUES ('event:ddl-locks', now(), 'r', 'v1', 'rs1', 'c1', 'succeeded', '[]', '[]', 'interactive')`,
    );
    await writer.commitTransaction();
    const outcome = await ddl;
    expect(outcome).toBeInstanceOf(PartitionsBusyError);
    expect((outcome as PartitionsBusyError).tables).toContain('action_results');
    const [{ n }] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM runs WHERE trigger_key = 'event:ddl-locks'`,
    );
    expect(n).toBe(1);
    expect(await dayExists(`action_results_p${stamp(AHEAD)}`)).toBe(false);

    // Nobody in the way: the retry makes every day, results with their runs.
    await expect(maintenance().createAhead(AHEAD)).resolves.toEqual([]);
    expect(await dayExists(`runs_p${stamp(AHEAD)}`)).toBe(true);
    expect(await dayExists(`action_results_p${stamp(AHEAD)}`)).toBe(true);
  });

  // Seen in a fuzz run: an operator's retry-dead (read runs, then update them) got "deadlock
  // detected" at once while the start made a runs day. The DDL held `runs` in a weaker mode and
  // waited to raise it to ACCESS EXCLUSIVE: a reader's write then closed the cycle at its first
  // request. Now the DDL takes its own table's strongest lock first, holding nothing of it before.
  it("a reader's write goes ahead of the waiting DDL instead of closing a cycle", async () => {
    const later = new Date(AHEAD.getTime() + 10 * DAY_MS);
    await writer.startTransaction();
    await writer.query(`SELECT count(*) FROM runs`);
    const ddl = maintenance()
      .createAhead(later)
      .then(
        () => 'created',
        (err: unknown) => err,
      );
    await waitingOn(ddl, ['runs', 'runs_default']);
    await expect(writer.query(`UPDATE runs SET updated_at = now() WHERE false`)).resolves.toBeDefined();
    await writer.commitTransaction();
    const outcome = await ddl;
    expect(outcome === 'created' || outcome instanceof PartitionsBusyError).toBe(true);
    await expect(maintenance().createAhead(later)).resolves.toEqual([]);
    expect(await dayExists(`runs_p${stamp(later)}`)).toBe(true);
  });
});
