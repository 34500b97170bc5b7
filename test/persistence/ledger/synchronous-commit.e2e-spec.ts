// The action marks that say a call may have reached the CRM (running) and that it did (succeeded)
// must be durable before the engine goes on, on a pool that commits asynchronously by default.
// They are one statement each (SYNC_COMMIT_FROM in src/persistence/ledger/action-results.repository.ts): set_config within the
// statement, read by Postgres at its commit. Measured here by WAL flushes: at least one per mark.
import { DataSource } from 'typeorm';
import { createTestDb, type TestDb } from '../../support/test-db';
import { dataSourceOptions } from '../../../src/persistence/schema/data-source';
import { ActionResultsRepository } from '../../../src/persistence/ledger/action-results.repository';

const MARKS = 50;

describe('action marks committed synchronously in one statement', () => {
  let db: TestDb;
  let oneConnection: DataSource;
  let runId: string;
  let triggerAt: Date;

  beforeAll(async () => {
    db = await createTestDb();
    // One connection: the setting the marks leave behind is the session's own.
    oneConnection = new DataSource(dataSourceOptions(db.url, {}, 1));
    await oneConnection.initialize();
    const [run] = await oneConnection.query(
      `INSERT INTO runs (trigger_key, trigger_at, rule_id, rule_version, rule_set_version, contact_id,
                         status, trace, actions, priority)
       VALUES ('event:sync-commit', date_trunc('milliseconds', now()), 'r', 'v1', 'rs1', 'c1', 'running', '[]', '[]', 'interactive')
       RETURNING id, trigger_at`,
    );
    runId = run.id;
    triggerAt = run.trigger_at;
  });
  afterAll(async () => {
    await oneConnection?.destroy();
    await db?.drop();
  });

  /** WAL flushes so far, this session's own included (a backend reports its counts lazily). */
  const walSyncs = async () => {
    await oneConnection.query(`SELECT pg_stat_force_next_flush()`);
    await oneConnection.query(`SELECT pg_stat_clear_snapshot()`);
    return Number((await oneConnection.query(`SELECT wal_sync FROM pg_stat_wal`))[0].wal_sync);
  };

  it('each running mark and each success flushes the WAL; the session stays asynchronous', async () => {
    const actions = new ActionResultsRepository(oneConnection);
    await actions.insertForRun(
      runId,
      triggerAt,
      Array.from({ length: MARKS }, () => ({ type: 'add-tag' as const, tag: 'vip' })),
      'pending',
    );
    const rows = await actions.ofRun(runId);
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
});
