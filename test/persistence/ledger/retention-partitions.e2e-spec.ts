// bench:retention's correctness (not its timing): dropping a day's partitions takes that day's runs
// and action results and nothing else, keeps a day that holds a waiting run, and removes the same
// rows as retention's row deletes do on the unpartitioned tables.
import { createTestDb, type TestDb } from '../../support/test-db';
import {
  countBetween,
  createDays,
  createPartitionedLedger,
  deleteRowsBefore,
  dropDaysBefore,
  fillDay,
} from '../../../bench/retention-partitions-fixture';
import { dailyPartition } from '../../../src/persistence/partitions/ledger-partitions';
import { LedgerPartitionsRepository } from '../../../src/persistence/partitions/ledger-partitions.repository';

const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'].map((d) => new Date(`${d}T00:00:00Z`));
const PER_DAY = 200;

describe('retention by partition (bench:retention fixture)', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
    await createPartitionedLedger(db.dataSource);
    await createDays(db.dataSource, DAYS);
    for (const day of DAYS) await fillDay(db.dataSource, day, PER_DAY);
    // A run still waiting on the second day: its day must outlive the cutoff.
    await fillDay(db.dataSource, DAYS[1], 1, 'waiting');
  });

  afterAll(() => db.drop());

  const count = (table: string, column: string, day: Date) => {
    const p = dailyPartition('x', day);
    return countBetween(db.dataSource, table, column, p.from, p.to);
  };

  it('drops the days before the cutoff that hold no live run, and says which it kept', async () => {
    const cutoff = DAYS[2];
    const outcome = await dropDaysBefore(db.dataSource, cutoff);
    expect(outcome.dropped).toEqual(['action_results_part_p20261120', 'runs_part_p20261120']);
    expect(outcome.kept).toEqual([{ name: 'runs_part_p20261121', rows: 1 }]);

    expect(await count('runs_part', 'created_at', DAYS[0])).toBe(0);
    expect(await count('action_results_part', 'run_created_at', DAYS[0])).toBe(0);
    expect(await count('runs_part', 'created_at', DAYS[1])).toBe(PER_DAY + 1);
    for (const day of DAYS.slice(2)) {
      expect(await count('runs_part', 'created_at', day)).toBe(PER_DAY);
      expect(await count('action_results_part', 'run_created_at', day)).toBe(PER_DAY);
    }
    const children = (await new LedgerPartitionsRepository(db.dataSource).children('runs_part')).map(
      (c) => c.name,
    );
    expect(children).toEqual([
      'runs_part_default',
      'runs_part_p20261121',
      'runs_part_p20261122',
      'runs_part_p20261123',
    ]);
  });

  it('leaves the same rows as the row deletes of retention today on the first day', async () => {
    const deleted = await deleteRowsBefore(db.dataSource, DAYS[1]);
    expect(deleted).toBe(PER_DAY);
    expect(await count('runs', 'created_at', DAYS[0])).toBe(0);
    expect(await count('action_results', 'finished_at', DAYS[0])).toBe(0);
    for (const day of DAYS.slice(1)) {
      expect(await count('runs', 'created_at', day)).toBe(await count('runs_part', 'created_at', day));
    }
  });

  it('puts a row outside every day in the default partition instead of failing', async () => {
    await fillDay(db.dataSource, new Date('2027-01-05T00:00:00Z'), 3);
    const [{ n }]: { n: string }[] = await db.dataSource.query(`SELECT count(*) AS n FROM runs_part_default`);
    expect(Number(n)).toBe(3);
  });

  it('keeps dedupe on the partitioned copy: the same trigger, rule, contact and day is refused', async () => {
    const [run]: { trigger_key: string; rule_id: string; contact_id: string; created_at: Date }[] =
      await db.dataSource.query(`SELECT trigger_key, rule_id, contact_id, created_at FROM runs_part LIMIT 1`);
    const rows: unknown[] = await db.dataSource.query(
      `INSERT INTO runs_part (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace,
                              actions, priority, created_at)
       VALUES ($1, $2, 'v1', 'rs1', $3, 'succeeded', '{}', '[]', 'interactive', $4)
       ON CONFLICT (trigger_key, rule_id, contact_id, created_at) DO NOTHING RETURNING id`,
      [run.trigger_key, run.rule_id, run.contact_id, run.created_at],
    );
    expect(rows).toHaveLength(0);
  });
});
