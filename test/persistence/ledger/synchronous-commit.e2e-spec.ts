// The action marks that say a call may have reached the CRM (running) and that it did (succeeded)
// must be durable before the engine goes on, on a pool that commits asynchronously by default.
// They are one statement each (SYNC_COMMIT_FROM in src/persistence/ledger/action-results.repository.ts): set_config within the
// statement, read by Postgres at its commit. Measured here by WAL flushes: at least one per mark.
// A state-checked action's running mark is the exception (runningMarkDurable): no flush of its own.
import { DataSource } from 'typeorm';
import { createTestDb, type TestDb } from '../../support/test-db';
import { dataSourceOptions } from '../../../src/persistence/schema/data-source';
import { ActionResultsRepository } from '../../../src/persistence/ledger/action-results.repository';

const MARKS = 50;

describe('action marks committed synchronously in one statement', () => {
  let db: TestDb;
  let oneConnection: DataSource;

  beforeAll(async () => {
    db = await createTestDb();
    // One connection: the setting the marks leave behind is the session's own.
    oneConnection = new DataSource(dataSourceOptions(db.url, {}, 1));
    await oneConnection.initialize();
  });
  afterAll(async () => {
    await oneConnection?.destroy();
    await db?.drop();
  });

  /** A running run with MARKS pending add-tag actions; their rows. */
  const runWithActions = async (key: string) => {
    const [run] = await oneConnection.query(
      `INSERT INTO runs (trigger_key, trigger_at, rule_id, rule_version, rule_set_version, contact_id,
                         status, trace, actions, priority)
       VALUES ($1, date_trunc('milliseconds', now()), 'r', 'v1', 'rs1', 'c1', 'running', '[]', '[]', 'interactive')
       RETURNING id, trigger_at`,
      [key],
    );
    const actions = new ActionResultsRepository(oneConnection);
    const tag = { type: 'add-tag' as const, tag: 'vip' };
    await actions.insertForRun(
      run.id,
      run.trigger_at,
      Array.from({ length: MARKS }, () => tag),
      'pending',
    );
    return { runId: run.id as string, rows: await actions.ofRun(run.id) };
  };

  /** WAL flushes so far, this session's own included (a backend reports its counts lazily). */
  const walSyncs = async () => {
    await oneConnection.query(`SELECT pg_stat_force_next_flush()`);
    await oneConnection.query(`SELECT pg_stat_clear_snapshot()`);
    return Number((await oneConnection.query(`SELECT wal_sync FROM pg_stat_wal`))[0].wal_sync);
  };

  it('each running mark and each success flushes the WAL; the session stays asynchronous', async () => {
    const actions = new ActionResultsRepository(oneConnection);
    const { runId, rows } = await runWithActions('event:sync-commit');
    expect(rows).toHaveLength(MARKS);
    const [{ synchronous_commit: before }] = await oneConnection.query(`SHOW synchronous_commit`);
    expect(before).toBe('off');

    const syncsBefore = await walSyncs();
    for (const row of rows) {
      await actions.markRunning(row.id);
      await actions.succeed(row.id, 1, null);
    }
    // Each synchronous commit flushes (fsyncs) the WAL before it answers; an asynchronous one
    // leaves that to the WAL writer (a few flushes for the whole loop).
    expect((await walSyncs()) - syncsBefore).toBeGreaterThanOrEqual(2 * MARKS);
    const [{ synchronous_commit: after }] = await oneConnection.query(`SHOW synchronous_commit`);
    expect(after).toBe('off');
    expect((await actions.ofRun(runId)).every((r) => r.status === 'succeeded')).toBe(true);
    // A succeeded action is not marked running again.
    await expect(actions.markRunning(rows[0].id)).rejects.toThrow('already succeeded');
  });

  it('a running mark that need not be durable commits without a flush of its own', async () => {
    const actions = new ActionResultsRepository(oneConnection);
    // pg_stat_wal counts the whole cluster: the fewest flushes of three loops, so another
    // database's commits during one loop do not fail the check.
    const flushes: number[] = [];
    let rows: Awaited<ReturnType<typeof runWithActions>>['rows'] = [];
    for (const loop of [1, 2, 3]) {
      const run = await runWithActions(`event:async-running-mark-${loop}`);
      rows = run.rows;
      const syncsBefore = await walSyncs();
      for (const row of rows) expect(await actions.markRunning(row.id, false)).toBeInstanceOf(Date);
      flushes.push((await walSyncs()) - syncsBefore);
      const after = await actions.ofRun(run.runId);
      expect(after.map((a) => a.status)).toEqual(rows.map(() => 'running'));
    }
    // The WAL writer flushes asynchronous commits in the background (every wal_writer_delay):
    // a handful for a whole loop, against one per mark above.
    expect(Math.min(...flushes)).toBeLessThan(MARKS / 2);
    await actions.succeed(rows[0].id, 1, null);
    await expect(actions.markRunning(rows[0].id, false)).rejects.toThrow('already succeeded');
  });
});
