import { CreateSegments1763780000000 } from '../../../migrations/1763780000000-CreateSegments';
import { createTestDb, type TestDb } from '../../support/test-db';

const TABLES = [
  'contact_mirror',
  'contact_mirror_tombstones',
  'contact_mirror_state',
  'segment_rule_state',
  'segment_memberships',
  'segment_sweeps',
];

describe('the segments migration', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  }, 60_000);
  afterAll(async () => db?.drop());

  it('creates exactly what the entity classes describe', async () => {
    const log = await db.dataSource.driver.createSchemaBuilder().log();
    const mine = log.upQueries.map((q) => q.query).filter((q) => TABLES.some((t) => q.includes(`"${t}"`)));
    expect(mine).toEqual([]);
  });

  it('is undone by down() and redone by up()', async () => {
    const runner = db.dataSource.createQueryRunner();
    const migration = new CreateSegments1763780000000();
    const existing = async () =>
      (
        await runner.query(`SELECT table_name FROM information_schema.tables WHERE table_name = ANY($1)`, [
          TABLES,
        ])
      ).length;
    try {
      await migration.down(runner);
      expect(await existing()).toBe(0);
      await migration.up(runner);
      expect(await existing()).toBe(TABLES.length);
    } finally {
      await runner.release();
    }
  });
});
