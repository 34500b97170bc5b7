// A guarded no-op run (every action refused by its guard) is settled in the events transaction
// (src/pipeline/admission/settle-in-transaction.ts): run `succeeded`, actions `skipped` with the guard's reason,
// no runner, no actions job, no CRM write, fewer statements. Anything else keeps the runner's
// path: a contact with an unfinished run (in order), an action that writes.
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Pool } from 'pg';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { EngineMetrics } from '../../../src/operator/ops/engine-metrics';
import { ACTIONS_QUEUE, actionJobId } from '../../../src/runtime/queues/queue-jobs';
import { DEMO } from '../../support/demo-fixture';
import {
  ADMIN_TOKEN,
  crm,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../../support/engine-harness';
import { consoleCookie } from '../../operator/console/console-login';
import { api, request } from '../../support/http';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';

jest.setTimeout(120_000);

const ADD_TAG = 'POST /v1/contacts/:contactId/tags/:tagId';
const REMOVE_TAG = 'DELETE /v1/contacts/:contactId/tags/:tagId';
const RULES = {
  'settle.yaml': `
rule: settle-vip
on: contact.updated
if:
  all:
    - { fact: contact.name, operator: matches, value: "^Settle" }
    - { fact: contact.notes, operator: notEqual, value: "drop" }
do:
  - add-tag: vip
`,
  // The same action behind an always-open window: timing keeps it on the runner's path, so the
  // two paths can be compared on the same no-op.
  'windowed.yaml': `
rule: windowed-vip
on: contact.updated
if:
  all:
    - { fact: contact.name, operator: matches, value: "^Window" }
    - { fact: contact.notes, operator: notEqual, value: "drop" }
window: { days: mon-sun }
do:
  - add-tag: vip
`,
  'drop.yaml': `
rule: drop-vip
on: contact.updated
if: { fact: contact.notes, operator: equal, value: "drop" }
do:
  - remove-tag: vip
`,
  'later.yaml': `
rule: tag-later
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Settle" }
do:
  - wait: 60s
  - add-tag: customer
`,
};

describe('a guarded no-op run settled in the events transaction', () => {
  let h: Harness;
  // The test's own reads go through a pool of its own, so the spy below sees only the engine's.
  let pool: Pool;
  const db = {
    query: async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows,
  };
  const counter = async (route: string) =>
    ((await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body as Record<string, number>)[route] ?? 0;
  const dispatched = async () =>
    (await h.app.get(EngineMetrics).runDispatch.get()).values.reduce((n, v) => n + v.value, 0);
  // A run's ledger row is final inside its inline dispatch; the dispatch is counted when it returns.
  const dispatchedReaches = async (n: number) => {
    await eventually(async () => (await dispatched()) >= n);
    expect(await dispatched()).toBe(n);
  };
  const skippedMetric = async (reason: string) =>
    (await h.app.get(EngineMetrics).actions.get()).values.find(
      (v) => v.labels.type === 'add-tag' && v.labels.status === 'skipped' && v.labels.reason === reason,
    )?.value ?? 0;
  const runsCounted = async (status: string) =>
    (await h.app.get(EngineMetrics).runs.get()).values.find(
      (v) => v.labels.rule === 'settle-vip' && v.labels.status === status,
    )?.value ?? 0;
  const admin = (path: string) => api(h.url, 'GET', path, undefined, { 'x-admin-token': ADMIN_TOKEN });
  const finishedRun = (ruleId: string, contactId: string, n = 0) =>
    eventually(async () => {
      const rows: { id: string; status: string; created_at: Date; finished_at: Date | null }[] =
        await db.query(
          `SELECT id, status, created_at, finished_at FROM runs WHERE rule_id = $1 AND contact_id = $2 AND status <> 'not_matched'
          ORDER BY created_at`,
          [ruleId, contactId],
        );
      const row = rows[n];
      return row && !['pending', 'running'].includes(row.status) ? row : undefined;
    }, 30000);
  /** A contact in the CRM with the vip tag, as the CRM has it now. */
  const vipContact = async (name: string) => {
    const c = await newContact(h, name);
    expect((await crm(h, 'POST', `/v1/contacts/${c.id}/tags/${DEMO.tags.vip}`)).status).toBeLessThan(300);
    return (await crm(h, 'GET', `/v1/contacts/${c.id}`)).body as Record<string, unknown> & { id: string };
  };
  const crmTags = async (id: string) =>
    ((await crm(h, 'GET', `/v1/contacts/${id}`)).body.tags as { id: string }[]).map((t) => t.id);

  /** The app's statements that name this contact, its event, its runs or their action rows. */
  const statementsOf = async (contactId: string, fn: () => Promise<string>): Promise<string[]> => {
    // Observed, not replaced: every statement of the app's pool and transactions goes through here.
    const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    let ids: string[];
    let seen: [string, unknown][] = [];
    try {
      const runId = await fn();
      const rows: { id: string }[] = await db.query(
        `SELECT a.id::text FROM action_results a WHERE a.run_id = $1
         UNION ALL SELECT r.id::text FROM runs r WHERE r.contact_id = $2
         UNION ALL SELECT r.inbox_event_id::text FROM runs r WHERE r.contact_id = $2 AND r.inbox_event_id IS NOT NULL`,
        [runId, contactId],
      );
      ids = [contactId, ...rows.map((r) => r.id)];
      seen = spy.mock.calls.map(([sql, params]) => [String(sql), params]);
    } finally {
      spy.mockRestore();
    }
    return seen
      .filter(([, params]) => ids.some((id) => JSON.stringify(params ?? []).includes(id)))
      .map(([sql]) => sql.replace(/\s+/g, ' ').trim());
  };

  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, RULES_WATCH: 'false' },
    });
    pool = new Pool({ connectionString: h.databaseUrl, max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await h?.stop();
  });

  it('settles a no-op: succeeded, skipped no_change, no runner, no job, no CRM write, fewer statements; admin and console read as the runner', async () => {
    // Through the runner first (the window keeps it there): this also loads the tag names into
    // the directory's cache, which settlement reads without calling the CRM.
    const viaRunner = await vipContact('Window Noop');
    const dispatchedBefore = await dispatched();
    const runnerStatements = await statementsOf(viaRunner.id, async () => {
      await deliver(h.url, JSON.stringify(contactEvent('contact.updated', viaRunner)));
      return (await finishedRun('windowed-vip', viaRunner.id)).id;
    });
    await dispatchedReaches(dispatchedBefore + 1);

    const contact = await vipContact('Settle Noop');
    const [tagCalls, skips, dispatches, succeeded] = [
      await counter(ADD_TAG),
      await skippedMetric('no_change'),
      await dispatched(),
      await runsCounted('succeeded'),
    ];
    let runId = '';
    const settledStatements = await statementsOf(contact.id, async () => {
      await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
      runId = (await finishedRun('settle-vip', contact.id)).id;
      return runId;
    });
    const [run] = await db.query(`SELECT status, reason, finished_at FROM runs WHERE id = $1`, [runId]);
    expect(run).toEqual({ status: 'succeeded', reason: null, finished_at: expect.any(Date) });
    const detail = `contact already has tag vip (${DEMO.tags.vip})`;
    const [action] = await db.query(
      `SELECT status, reason, error_message, attempts, started_at, finished_at FROM action_results WHERE run_id = $1`,
      [runId],
    );
    expect(action).toEqual({
      status: 'skipped',
      reason: 'no_change',
      error_message: detail,
      attempts: 0,
      started_at: null,
      finished_at: expect.any(Date),
    });
    // Not handed to the runner, inline or queued; no actions job; nothing written to the CRM.
    expect(await dispatched()).toBe(dispatches);
    expect(await h.app.get<Queue>(getQueueToken(ACTIONS_QUEUE)).getJob(actionJobId(runId))).toBeUndefined();
    expect(await counter(ADD_TAG)).toBe(tagCalls);
    expect(await crmTags(contact.id)).toContain(DEMO.tags.vip);
    expect(await skippedMetric('no_change')).toBe(skips + 1);
    expect(await runsCounted('succeeded')).toBe(succeeded + 1);
    expect(await runsCounted('pending')).toBe(0);

    // The runner's own statements are gone: lease, `running`, the rows' read, skip, finish.
    const runnerOnly = (sqls: string[]) =>
      sqls.filter((s) =>
        /INTO contact_leases|FROM contact_leases WHERE contact_id = \$1 AND holder|UPDATE action_results|UPDATE runs|FROM action_results WHERE run_id/.test(
          s,
        ),
      );
    expect(runnerOnly(runnerStatements).length).toBeGreaterThanOrEqual(6);
    expect(runnerOnly(settledStatements)).toEqual([]);
    // Measured: 19 statements name this event through the runner, 11 settled (the runner's 9
    // autocommitted statements out, the settlement's one read in, inside the event's transaction).
    expect(settledStatements.length).toBeLessThan(runnerStatements.length - 5);

    // The admin view reads as the runner's skip did (same statuses, reason, detail; finished).
    const runnerRun = await finishedRun('windowed-vip', viaRunner.id);
    const views = [
      (await admin(`/admin/runs/${runId}`)).body,
      (await admin(`/admin/runs/${runnerRun.id}`)).body,
    ];
    for (const view of views) {
      expect(view).toMatchObject({ status: 'succeeded', reason: null, finishedAt: expect.any(String) });
      expect(view.actionResults).toEqual([
        expect.objectContaining({
          status: 'skipped',
          reason: 'no_change',
          errorMessage: expect.stringMatching(/^contact already has tag vip \(/),
          attempts: 0,
          startedAt: null,
          finishedAt: expect.any(String),
        }),
      ]);
    }
    // The console's run page tells the reason and its detail.
    const cookie = await consoleCookie(h.url);
    const page = await request(`${h.url}/console/runs/${runId}`, 'GET', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain(`no_change: ${detail}`);
  });

  it('leaves the run to the runner, in order, while the contact has a running run', async () => {
    const contact = await vipContact('Settle Order');
    // The earlier run's removal hangs: its run is `running` (and its contact leased) meanwhile.
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'latency',
      count: 1,
      latencyMs: 1500,
      route: REMOVE_TAG,
    });
    const tagCalls = await counter(ADD_TAG);
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', { ...contact, notes: 'drop' })));
    await eventually(async () => {
      const [a] = await db.query(
        `SELECT a.status FROM action_results a JOIN runs r ON r.id = a.run_id WHERE r.rule_id = 'drop-vip' AND r.contact_id = $1`,
        [contact.id],
      );
      return a?.status === 'running';
    });
    // This event's payload still shows the tag: settled on it, the tag would end up missing.
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', { ...contact, notes: 'again' })));
    const dropped = await finishedRun('drop-vip', contact.id);
    const added = await finishedRun('settle-vip', contact.id);
    expect([dropped.status, added.status]).toEqual(['succeeded', 'succeeded']);
    expect(added.finished_at!.getTime()).toBeGreaterThanOrEqual(dropped.finished_at!.getTime());
    // The runner guarded it after the removal: the tag was written again.
    expect(await db.query(`SELECT status, reason FROM action_results WHERE run_id = $1`, [added.id])).toEqual(
      [{ status: 'succeeded', reason: null }],
    );
    expect(await counter(ADD_TAG)).toBe(tagCalls + 1);
    expect(await crmTags(contact.id)).toContain(DEMO.tags.vip);
  });

  it('leaves a no-op to the runner while the contact has a waiting run', async () => {
    const contact = await vipContact('Settle Waiting');
    const beforeCreated = await dispatched();
    await deliver(h.url, JSON.stringify(contactEvent('contact.created', contact)));
    // The run is written `waiting` inside its inline dispatch, which is counted only when the
    // dispatch returns: wait for both, or a busy machine counts the created event's dispatch late.
    await eventually(async () => {
      const [r] = await db.query(`SELECT status FROM runs WHERE rule_id = 'tag-later' AND contact_id = $1`, [
        contact.id,
      ]);
      return r?.status === 'waiting' && (await dispatched()) === beforeCreated + 1;
    });
    const dispatches = await dispatched();
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const run = await finishedRun('settle-vip', contact.id);
    expect(run.status).toBe('succeeded');
    await dispatchedReaches(dispatches + 1);
    expect(await db.query(`SELECT status, reason FROM action_results WHERE run_id = $1`, [run.id])).toEqual([
      { status: 'skipped', reason: 'no_change' },
    ]);
  });

  it('leaves an action that writes to the runner, which reaches the CRM', async () => {
    const contact = await newContact(h, 'Settle Write');
    const [tagCalls, dispatches] = [await counter(ADD_TAG), await dispatched()];
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const run = await finishedRun('settle-vip', contact.id);
    expect(run.status).toBe('succeeded');
    await dispatchedReaches(dispatches + 1);
    expect(await db.query(`SELECT status, reason FROM action_results WHERE run_id = $1`, [run.id])).toEqual([
      { status: 'succeeded', reason: null },
    ]);
    expect(await counter(ADD_TAG)).toBe(tagCalls + 1);
    expect(await crmTags(contact.id)).toContain(DEMO.tags.vip);
  });
});
