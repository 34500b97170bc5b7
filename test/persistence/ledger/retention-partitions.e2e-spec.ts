// Retention by partition on the live ledger (bench:retention's correctness, not its timing):
// dropping a day takes that day's runs and action results and nothing else, keeps a day that
// holds a waiting run, removes the same rows as the row deletes, and the runs' unique key still
// refuses a second run of a trigger.
import { createTestDb, type TestDb } from '../../support/test-db';
import {
  countBetween,
  createDays,
  deleteRowsBefore,
  dropDaysBefore,
  fillDay,
} from '../../../bench/retention-partitions-fixture';
import { dailyPartition, utcDay } from '../../../src/persistence/partitions/ledger-partitions';
import { LedgerPartitionsRepository } from '../../../src/persistence/partitions/ledger-partitions.repository';
import { RunsRepository } from '../../../src/persistence/ledger/runs.repository';

const DAY_MS = 86_400_000;
// Days after the migration's legacy range (today and before, on a fresh database: the past).
const FIRST = utcDay(new Date(Date.now() + 10 * DAY_MS));
const DAYS = [0, 1, 2, 3].map((i) => new Date(FIRST.getTime() + i * DAY_MS));
const stamp = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
const PER_DAY = 200;

describe('retention by partition on the live runs and action_results', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
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
    const outcome = await dropDaysBefore(db.dataSource, DAYS[2]);
    // The oldest day, results first; the empty days the migration made before it go too.
    const pair = [`action_results_p${stamp(DAYS[0])}`, `runs_p${stamp(DAYS[0])}`];
    expect(outcome.dropped.slice(-2)).toEqual(pair);
    expect(outcome.dropped.filter((name) => name >= `runs_p${stamp(DAYS[1])}`)).toEqual([]);
    expect(outcome.kept).toEqual([{ name: `runs_p${stamp(DAYS[1])}`, rows: 1 }]);

    expect(await count('runs', 'trigger_at', DAYS[0])).toBe(0);
    expect(await count('action_results', 'run_trigger_at', DAYS[0])).toBe(0);
    expect(await count('runs', 'trigger_at', DAYS[1])).toBe(PER_DAY + 1);
    for (const day of DAYS.slice(2)) {
      expect(await count('runs', 'trigger_at', day)).toBe(PER_DAY);
      expect(await count('action_results', 'run_trigger_at', day)).toBe(PER_DAY);
    }
    const children = (await new LedgerPartitionsRepository(db.dataSource).children('runs')).map(
      (c) => c.name,
    );
    expect(children).not.toContain(`runs_p${stamp(DAYS[0])}`);
    expect(children).toEqual(
      expect.arrayContaining([
        'runs_default',
        'runs_legacy',
        ...DAYS.slice(1).map((d) => `runs_p${stamp(d)}`),
      ]),
    );
  });

  it('removes the same rows by row deletes: the kept day loses its finished runs, not its waiting one', async () => {
    const deleted = await deleteRowsBefore(db.dataSource, DAYS[2]);
    expect(deleted).toBe(PER_DAY);
    expect(await count('runs', 'trigger_at', DAYS[1])).toBe(1);
    expect(await count('action_results', 'run_trigger_at', DAYS[1])).toBe(1);
    expect(await count('runs', 'trigger_at', DAYS[2])).toBe(PER_DAY);
  });

  it('puts a row outside every day in the default partition instead of failing', async () => {
    await fillDay(db.dataSource, new Date(FIRST.getTime() + 400 * DAY_MS), 3);
    const [{ n }]: { n: string }[] = await db.dataSource.query(`SELECT count(*) AS n FROM runs_default`);
    expect(Number(n)).toBe(3);
  });

  it('keeps dedupe: the same trigger, rule, contact and trigger time writes nothing', async () => {
    const [run] = await db.dataSource.query(
      `SELECT trigger_key, trigger_at, rule_id, contact_id FROM runs WHERE trigger_at >= $1 LIMIT 1`,
      [DAYS[3]],
    );
    const again = await new RunsRepository(db.dataSource).insertMany([
      {
        id: '00000000-0000-4000-8000-0000000000aa',
        triggerKey: run.trigger_key,
        triggerAt: run.trigger_at,
        inboxEventId: null,
        ruleId: run.rule_id,
        ruleVersion: 'v1',
        ruleSetVersion: 'rs1',
        contactId: run.contact_id,
        status: 'pending',
        reason: null,
        mode: 'live',
        priority: 'interactive',
        trace: [],
        actions: [],
        contactSnapshot: null,
        correlationId: null,
      },
    ]);
    expect(again.size).toBe(0);
  });
});
