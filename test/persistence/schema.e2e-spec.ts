import { DataSource } from 'typeorm';
import { createTestDb, TestDb } from '../support/test-db';

// Migrations are hand-written and reviewed; the entity classes must describe exactly what they
// create, or `npm run migration:generate` would propose changes nobody asked for.
describe('migrations and entities', () => {
  let db: TestDb;
  let ds: DataSource;
  beforeAll(async () => {
    db = await createTestDb();
    ds = db.dataSource;
  });
  afterAll(async () => db?.drop());

  it('leave nothing for migration:generate to do', async () => {
    const log = await ds.driver.createSchemaBuilder().log();
    expect(log.upQueries.map((q) => q.query)).toEqual([]);
  });

  // Migration 1796010000000: planned as plain statements, these cost a plan over every daily
  // partition at every event; a function without the setting would quietly bring that back.
  it('keeps the event path look-ups on cached generic plans', async () => {
    const lookUps = [
      'contacts_settlement_state',
      'runs_due_waiting',
      'runs_endable_by_event',
      'runs_recent_successes',
      'runs_unfinished_up_to',
    ];
    const rows: { name: string; config: string[] | null }[] = await ds.query(
      `SELECT proname AS name, proconfig AS config FROM pg_proc WHERE proname = ANY($1) ORDER BY 1`,
      [lookUps],
    );
    expect(rows).toEqual(lookUps.map((name) => ({ name, config: ['plan_cache_mode=force_generic_plan'] })));
  });

  it('can all be reverted with down() and applied again', async () => {
    const count = ds.migrations.length;
    for (let i = 0; i < count; i++) await ds.undoLastMigration();
    const [{ n }] = await ds.query(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`,
    );
    expect(n).toBe(0);
    expect((await ds.runMigrations()).length).toBe(count);
  });
});
