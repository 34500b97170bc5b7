// The partitioning of inbox_events, runs and action_results on a database filled by the schema
// before it: every row is still there and unchanged, a resend of a delivery from before is still
// refused, a run of an old trigger is not made twice, an old waiting run still takes new results,
// new rows land in their day, and retention drops a day with the past left whole.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { dropDatabase } from '../../../src/persistence/schema/migrate';
import { databaseBefore } from '../../support/schema-before';
import { InboxEventsRepository } from '../../../src/persistence/ledger/inbox-events.repository';
import { InboxIntake } from '../../../src/persistence/ledger/inbox-intake.repository';
import { RunsRepository } from '../../../src/persistence/ledger/runs.repository';
import { ActionResultsRepository } from '../../../src/persistence/ledger/action-results.repository';
import type { RunInsert } from '../../../src/persistence/ledger/run-rows';
import { LedgerPartitionMaintenance } from '../../../src/persistence/partitions/ledger-partition-maintenance';

const MIGRATION = 1795990000000;
const TABLES = ['inbox_events', 'runs', 'action_results'];
const DAY_MS = 86_400_000;
const CONTACT = '5f0c2a9e-0000-4000-8000-000000000002';
const stamp = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

describe('inbox_events, runs and action_results partitioned by day: migration of a filled database', () => {
  let url: string;
  let ds: DataSource;
  const before = new Map<string, Record<string, unknown>[]>();
  const ids: Record<string, string> = {};
  const snapshot = (table: string) => ds.query(`SELECT * FROM ${table} ORDER BY id`);
  const ago = (ms: number) => new Date(Date.now() - ms);
  const body = (id: string, createdAt: Date) =>
    JSON.stringify({
      id,
      type: 'contact.updated',
      createdAt: createdAt.toISOString(),
      data: { id: CONTACT },
    });
  const run = (over: Partial<RunInsert>): RunInsert => ({
    id: randomUUID(),
    triggerKey: `event:${randomUUID()}`,
    triggerAt: new Date(),
    inboxEventId: null,
    ruleId: 'r1',
    ruleVersion: 'v1',
    ruleSetVersion: 'rs1',
    contactId: CONTACT,
    status: 'pending',
    reason: null,
    mode: 'live',
    priority: 'interactive',
    trace: [],
    actions: [{ type: 'add-tag', tag: 'vip' } as never],
    contactSnapshot: null,
    correlationId: null,
    ...over,
  });
  let boundary: Date;

  beforeAll(async () => {
    ({ url, ds } = await databaseBefore(MIGRATION));
    expect((await ds.query(`SELECT relkind FROM pg_class WHERE relname = 'runs'`))[0].relkind).toBe('r');

    const event = async (key: string, createdAt: Date, status: string) =>
      (
        await ds.query(
          `INSERT INTO inbox_events (event_key, type, payload, status, contact_id, received_at)
           VALUES ($1, 'contact.updated', $2, $3, $4, $5) RETURNING id`,
          [`id:${key}`, body(key, createdAt), status, CONTACT, createdAt],
        )
      )[0].id as string;
    ids.old = await event('evt_old', ago(3 * DAY_MS), 'processed');
    // Received an hour ago: its resend after the migration carries a time inside today.
    ids.recent = await event('evt_recent', ago(3_600_000), 'pending');
    const oldRun = async (rule: string, status: string) =>
      (
        await ds.query(
          `INSERT INTO runs (trigger_key, inbox_event_id, rule_id, rule_version, rule_set_version, contact_id,
                             status, trace, actions, priority, created_at)
           VALUES ($1, $2, $3, 'v1', 'rs1', $4, $5, '[]', '[{"type":"add-tag","tag":"vip"}]', 'interactive', $6)
           RETURNING id`,
          [`event:${ids.old}`, ids.old, rule, CONTACT, status, ago(3 * DAY_MS)],
        )
      )[0].id as string;
    ids.done = await oldRun('r1', 'succeeded');
    ids.waiting = await oldRun('r2', 'waiting');
    await ds.query(
      `INSERT INTO action_results (run_id, action_index, action, status) VALUES ($1, 0, '{"type":"add-tag"}', 'succeeded')`,
      [ids.done],
    );
    for (const t of TABLES) before.set(t, await snapshot(t));
    await ds.runMigrations();
    const [{ bound }] = await ds.query(
      `SELECT pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_class c WHERE relname = 'runs_legacy'`,
    );
    boundary = new Date(/TO \('([^']+)'\)/.exec(bound)![1]);
  });

  afterAll(async () => {
    await ds?.destroy();
    if (url) await dropDatabase(url);
  });

  it('makes each table partitioned, its past the old table attached up to the day after the newest row', async () => {
    for (const t of TABLES) {
      expect((await ds.query(`SELECT relkind FROM pg_class WHERE relname = $1`, [t]))[0].relkind).toBe('p');
    }
    expect(boundary.getTime()).toBeGreaterThan(Date.now());
    expect(boundary.getTime() % DAY_MS).toBe(0);
    const view = await new LedgerPartitionMaintenance(ds).view();
    for (const t of TABLES) {
      expect(view.find((v) => v.table === t)).toEqual(
        expect.objectContaining({ days: 3, defaultRows: 0, others: [`${t}_default`, `${t}_legacy`] }),
      );
    }
  });

  it.each(TABLES)('keeps every row of %s as it was', async (table) => {
    const was = before.get(table)!;
    const columns = Object.keys(was[0]);
    const now = (await snapshot(table)) as Record<string, unknown>[];
    expect(now.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])))).toEqual(was);
  });

  it('still refuses a resend of a delivery from before, old or from the last hour', async () => {
    const inbox = new InboxIntake(ds);
    // The resend is the same body: the time its stored payload holds (3 days ago, an hour ago).
    for (const key of ['evt_old', 'evt_recent']) {
      const stored = await ds.query(
        `SELECT payload->>'createdAt' AS at FROM inbox_events WHERE event_key = $1`,
        [`id:${key}`],
      );
      const eventAt = new Date(stored[0].at);
      const resend = [
        {
          key: `id:${key}`,
          type: 'contact.updated',
          payloadJson: body(key, eventAt),
          contactId: CONTACT,
          eventAt,
        },
      ];
      expect(await inbox.insertOnSynchronousSession(resend, randomUUID())).toEqual([]);
    }
    expect(Number((await ds.query(`SELECT count(*) AS n FROM inbox_events`))[0].n)).toBe(2);
  });

  it('does not make a second run of a trigger from before (its event row gives the legacy time)', async () => {
    const row = await new InboxEventsRepository(ds).find(ids.old);
    const again = await new RunsRepository(ds).insertMany([
      run({ triggerKey: `event:${ids.old}`, triggerAt: row!.event_at, inboxEventId: ids.old }),
    ]);
    expect(again.size).toBe(0);
  });

  it('gives an old waiting run new results in its own (legacy) day', async () => {
    const [{ trigger_at }] = await ds.query(`SELECT trigger_at FROM runs WHERE id = $1`, [ids.waiting]);
    await new ActionResultsRepository(ds).insertForRun(
      ids.waiting,
      trigger_at,
      [{ type: 'add-tag' } as never],
      'pending',
    );
    const [stored] = await ds.query(
      `SELECT tableoid::regclass::text AS part FROM action_results WHERE run_id = $1`,
      [ids.waiting],
    );
    expect(stored.part).toBe('action_results_legacy');
  });

  it('puts new rows in their day, and drops that day with its results, the past left whole', async () => {
    const day = boundary;
    const at = new Date(day.getTime() + 3_600_000);
    const fresh = run({ triggerAt: at, status: 'succeeded' });
    expect((await new RunsRepository(ds).insertMany([fresh])).size).toBe(1);
    await new ActionResultsRepository(ds).insertForRun(fresh.id, at, fresh.actions, 'shadow');
    const [{ part }] = await ds.query(`SELECT tableoid::regclass::text AS part FROM runs WHERE id = $1`, [
      fresh.id,
    ]);
    expect(part).toBe(`runs_p${stamp(day)}`);

    const upkeep = await new LedgerPartitionMaintenance(ds).dropBefore(new Date(day.getTime() + DAY_MS));
    expect(upkeep.find((u) => u.table === 'runs')!.dropped).toEqual([
      `action_results_p${stamp(day)}`,
      `runs_p${stamp(day)}`,
    ]);
    expect(await ds.query(`SELECT id FROM runs WHERE id = $1`, [fresh.id])).toEqual([]);
    expect(await ds.query(`SELECT id FROM action_results WHERE run_id = $1`, [fresh.id])).toEqual([]);
    for (const t of TABLES) {
      expect(Number((await ds.query(`SELECT count(*) AS n FROM ${t}_legacy`))[0].n)).toBeGreaterThanOrEqual(
        before.get(t)!.length,
      );
    }
  });
});
