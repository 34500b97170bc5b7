// Retention against real Postgres and Redis: what is old and finished goes, in batches; what an
// operator may still need stays; the daily job is registered once in BullMQ.
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { RETENTION_QUEUE, RETENTION_SCHEDULER_ID } from '../../src/ops/retention/retention';
import { RetentionService } from '../../src/ops/retention/retention.service';
import { eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';
import { ensureBuilt, WorkerProcesses } from '../support/worker-process';

const RULES = {
  'tag.yaml': ['rule: tag-updated', 'on: contact.updated', 'do:', '  - add-tag: vip', ''].join('\n'),
};

describe('retention (RETENTION_DAYS)', () => {
  let h: Harness;
  let db: DataSource;
  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, RETENTION_DAYS: '30' },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  /** Delivers an event and waits for its run to finish; returns the inbox and run ids. */
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

  const age = (table: string, column: string, id: string, days: number) =>
    db.query(`UPDATE ${table} SET ${column} = now() - make_interval(days => $2) WHERE id = $1`, [id, days]);
  const exists = async (table: string, id: string) =>
    (await db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).length === 1;

  it('deletes finished runs and processed events past the age, keeps the recent and the actionable', async () => {
    const old = await finishedRun('Olga Old');
    const recent = await finishedRun('Rita Recent');
    const deadOld = await finishedRun('Dora Dead');
    await age('runs', 'created_at', old.runId, 31);
    await age('inbox_events', 'received_at', old.eventId, 31);
    await age('runs', 'created_at', deadOld.runId, 31);
    await db.query(`UPDATE runs SET status = 'dead' WHERE id = $1`, [deadOld.runId]);
    const pendingOld = await db.query(
      `INSERT INTO inbox_events (event_key, type, payload, received_at)
       VALUES ('test:retention:pending', 'contact.updated', '{}', now() - interval '40 days') RETURNING id`,
    );

    const result = await h.app.get(RetentionService).prune();

    expect(result.runs).toBeGreaterThanOrEqual(1);
    expect(result.inboxEvents).toBeGreaterThanOrEqual(1);
    expect(await exists('runs', old.runId)).toBe(false);
    expect(await db.query(`SELECT 1 FROM action_results WHERE run_id = $1`, [old.runId])).toEqual([]);
    expect(await exists('inbox_events', old.eventId)).toBe(false);
    expect(await exists('runs', recent.runId)).toBe(true);
    expect(await exists('inbox_events', recent.eventId)).toBe(true);
    expect(await exists('runs', deadOld.runId)).toBe(true); // an operator may still retry it
    expect(await exists('inbox_events', pendingOld[0].id)).toBe(true); // work not done yet
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
