// Retention against real Postgres and Redis. The tables come from GROWING_TABLES (src), not from
// this file: every table that grows gets rows backdated past its horizon, which the daily prune
// must delete, and rows it must keep (recent, or still needed whatever their age). A table added
// to the list without rows here fails to compile; a table of the schema in neither GROWING_TABLES
// nor BOUNDED_TABLES fails the first test.
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  BOUNDED_TABLES,
  GROWING_TABLES,
  RETENTION_QUEUE,
  RETENTION_SCHEDULER_ID,
  type GrowingTableName,
} from '../../src/persistence/retention/retention';
import { RetentionService, type PruneResult } from '../../src/persistence/retention/retention.service';
import { eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';
import { ensureBuilt, WorkerProcesses } from '../support/worker-process';

const RULES = {
  'tag.yaml': ['rule: tag-updated', 'on: contact.updated', 'do:', '  - add-tag: vip', ''].join('\n'),
};
const LEDGER_DAYS = 30;
const AUDIT_DAYS = 365;

/** Rows of one table, by the value of its key column: those the prune must delete and keep. */
interface Seeded {
  key: string;
  gone: string[];
  kept: string[];
}
type Seeder = () => Promise<Seeded>;

describe('retention (RETENTION_DAYS, RETENTION_AUDIT_DAYS)', () => {
  let h: Harness;
  let db: DataSource;
  const seeded = new Map<GrowingTableName, Seeded>();
  let result: PruneResult;

  const one = async (sql: string, params: unknown[] = []): Promise<string> =>
    (await db.query(sql, params))[0].id;
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

  /** Delivers an event and waits for its run to succeed: a run with action results and a processed event. */
  async function finishedRun(name: string): Promise<{ eventId: string; runId: string }> {
    const contact = await newContact(h, name);
    const reply = await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const [run] = await eventually(async () => {
      const rows = await db.query(`SELECT id FROM runs WHERE inbox_event_id = $1 AND status = 'succeeded'`, [
        reply.json.id,
      ]);
      return rows.length ? rows : undefined;
    });
    return { eventId: reply.json.id, runId: run.id };
  }
  const insertRun = (status: string, days: number) =>
    one(
      `INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace, actions, priority, created_at)
       VALUES ($1, 'retention-test', 'v', 'v', $2, $3, '[]', '[]', 'interactive', $4) RETURNING id`,
      [`test:${randomUUID()}`, randomUUID(), status, daysAgo(days)],
    );
  const insertEvent = (status: string, days: number) =>
    one(
      `INSERT INTO inbox_events (event_key, type, payload, status, received_at)
       VALUES ($1, 'contact.updated', '{}', $2, $3) RETURNING id`,
      [`test:${randomUUID()}`, status, daysAgo(days)],
    );
  const actionResultsOf = async (runId: string): Promise<string[]> =>
    (await db.query(`SELECT id FROM action_results WHERE run_id = $1`, [runId])).map(
      (r: { id: string }) => r.id,
    );

  // The engine's own runs: an old one (with its event) and a recent one; shared by three tables.
  let oldRun: { eventId: string; runId: string };
  let recentRun: { eventId: string; runId: string };

  const SEEDERS: Record<GrowingTableName, Seeder> = {
    runs: async () => {
      await db.query(`UPDATE runs SET created_at = $2 WHERE id = $1`, [
        oldRun.runId,
        daysAgo(LEDGER_DAYS + 1),
      ]);
      const gone = [oldRun.runId];
      for (const status of ['failed', 'not_matched', 'suppressed', 'cancelled'])
        gone.push(await insertRun(status, LEDGER_DAYS + 1));
      const kept = [recentRun.runId, await insertRun('cancelled', LEDGER_DAYS - 1)];
      // An operator may still act on these, or they are still at work.
      for (const status of ['dead', 'uncertain', 'pending', 'running', 'waiting'])
        kept.push(await insertRun(status, LEDGER_DAYS + 100));
      return { key: 'id', gone, kept };
    },
    action_results: async () => {
      const gone = await actionResultsOf(oldRun.runId);
      const kept = await actionResultsOf(recentRun.runId);
      expect([gone.length, kept.length]).toEqual([1, 1]);
      return { key: 'id', gone, kept };
    },
    inbox_events: async () => {
      await db.query(`UPDATE inbox_events SET received_at = $2 WHERE id = $1`, [
        oldRun.eventId,
        daysAgo(LEDGER_DAYS + 1),
      ]);
      const gone = [oldRun.eventId, await insertEvent('processed', LEDGER_DAYS + 1)];
      const kept = [
        recentRun.eventId,
        await insertEvent('pending', LEDGER_DAYS + 9),
        await insertEvent('failed', 90),
      ];
      return { key: 'id', gone, kept };
    },
    contact_journal: async () => {
      const note = (days: number) =>
        one(`INSERT INTO contact_journal (contact_id, kind, at) VALUES ($1, 'crm.call', $2) RETURNING id`, [
          randomUUID(),
          daysAgo(days),
        ]);
      return { key: 'id', gone: [await note(LEDGER_DAYS + 1)], kept: [await note(LEDGER_DAYS - 1)] };
    },
    segment_sweeps: async () => {
      const sweep = (status: string, days: number) =>
        one(
          `INSERT INTO segment_sweeps (rule_id, tick_at, reason, status, queued_at) VALUES ($1, $2, 'cron', $3, $2) RETURNING id`,
          [`retention-${randomUUID()}`, daysAgo(days), status],
        );
      const gone = [];
      for (const status of ['succeeded', 'failed', 'skipped'])
        gone.push(await sweep(status, LEDGER_DAYS + 1));
      const kept = [
        await sweep('succeeded', LEDGER_DAYS - 1),
        await sweep('queued', LEDGER_DAYS + 1),
        await sweep('running', LEDGER_DAYS + 1),
      ];
      return { key: 'id', gone, kept };
    },
    contact_mirror_tombstones: async () => {
      const tombstone = (days: number) =>
        one(`INSERT INTO contact_mirror_tombstones (id, deleted_at) VALUES ($1, $2) RETURNING id`, [
          randomUUID(),
          daysAgo(days),
        ]);
      return {
        key: 'id',
        gone: [await tombstone(LEDGER_DAYS + 1)],
        kept: [await tombstone(LEDGER_DAYS - 1)],
      };
    },
    rule_control_audit: async () => {
      const audit = (days: number) =>
        one(
          `INSERT INTO rule_control_audit (rule_id, change, actor, at) VALUES ('tag-updated', 'pause', 'test', $1) RETURNING id`,
          [daysAgo(days)],
        );
      // Past the ledger's horizon but inside the audit's: kept.
      return { key: 'id', gone: [await audit(AUDIT_DAYS + 1)], kept: [await audit(LEDGER_DAYS + 100)] };
    },
    console_sessions: async () => {
      // Default limits: 30 min idle, 12 h lifetime. Backdated by minutes and hours, not days.
      const session = (idleMinutes: number, ageHours: number) =>
        one(
          `INSERT INTO console_sessions (id_hash, token_fingerprint, created_at, last_seen_at)
           VALUES ($1, 'fp', now() - $2 * interval '1 hour', now() - $3 * interval '1 minute') RETURNING id_hash AS id`,
          [randomUUID(), ageHours, idleMinutes],
        );
      const gone = [await session(31, 1), await session(1, 13)];
      return { key: 'id_hash', gone, kept: [await session(5, 11)] };
    },
  };

  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: {
        CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        RETENTION_DAYS: String(LEDGER_DAYS),
        RETENTION_AUDIT_DAYS: String(AUDIT_DAYS),
      },
    });
    db = h.app.get(DataSource);
    oldRun = await finishedRun('Olga Old');
    recentRun = await finishedRun('Rita Recent');
    for (const { table } of GROWING_TABLES) seeded.set(table, await SEEDERS[table]());
    result = await h.app.get(RetentionService).prune();
  });
  afterAll(async () => h?.stop());

  it('lists every table of the schema as growing (pruned) or bounded', async () => {
    const tables: string[] =
      // A partition belongs to its table's entry (PARTITIONED_TABLES): only the tables themselves.
      (
        await db.query(
          `SELECT relname AS table_name FROM pg_class
          WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition`,
        )
      ).map((r: { table_name: string }) => r.table_name);
    const listed = new Set([...GROWING_TABLES.map((t) => t.table), ...Object.keys(BOUNDED_TABLES)]);
    expect(tables.filter((t) => !listed.has(t))).toEqual([]);
    expect(GROWING_TABLES.map((t) => t.table).filter((t) => !tables.includes(t))).toEqual([]);
  });

  it.each(GROWING_TABLES.map((t) => [t.table, t.horizon] as const))(
    'prunes %s past its horizon (%s) and keeps the rest',
    async (table) => {
      const rows = seeded.get(table)!;
      const present = async (ids: string[]) =>
        (
          await db.query(`SELECT ${rows.key}::text AS k FROM ${table} WHERE ${rows.key}::text = ANY($1)`, [
            ids,
          ])
        )
          .map((r: { k: string }) => r.k)
          .sort();
      expect(rows.gone.length).toBeGreaterThan(0);
      expect(await present(rows.gone)).toEqual([]);
      expect(await present(rows.kept)).toEqual([...rows.kept].sort());
    },
  );

  it('counts what it deleted per table, with one horizon for the ledger and a longer one for audit', () => {
    for (const t of GROWING_TABLES)
      if (!('prunedWith' in t))
        expect(result.deleted[t.table]).toBeGreaterThanOrEqual(seeded.get(t.table)!.gone.length);
    expect(Date.parse(result.cutoff) - Date.parse(result.auditCutoff)).toBe(
      (AUDIT_DAYS - LEDGER_DAYS) * 86_400_000,
    );
  });

  it('is scheduled as one BullMQ job scheduler, whatever the number of processes', async () => {
    const queue = h.app.get<Queue>(getQueueToken(RETENTION_QUEUE));
    // A second scheduler process (the compiled engine) against the same Postgres and Redis.
    const processes = new WorkerProcesses();
    try {
      ensureBuilt();
      await processes.start(h, { ROLE: 'scheduler' }).ready;
      const schedulers = await queue.getJobSchedulers();
      expect(schedulers.map((s) => s.key)).toEqual([RETENTION_SCHEDULER_ID]);
      // And one next tick queued, not one per process.
      const next = (await queue.getJobs(['delayed', 'wait', 'prioritized'])).filter(
        (j) => j.name === 'prune',
      );
      expect(next).toHaveLength(1);
    } finally {
      processes.killAll();
    }
  }, 60_000);
});
