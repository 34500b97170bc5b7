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
