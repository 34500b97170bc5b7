// An event's acting runs execute in the events job when the contact is free (RunDispatchService),
// and never twice: the ledger, not the job, decides what is left to do.
import { DataSource } from 'typeorm';
import { EngineMetrics } from '../../src/operator/ops/engine-metrics';
import { ActionsQueue } from '../../src/runtime/queues/actions-queue.service';
import { ReconcilerService } from '../../src/pipeline/events-worker/reconciler.service';
import { EventsQueue } from '../../src/runtime/queues/events-queue.service';
import { ACTIONS_QUEUE, actionJobId } from '../../src/runtime/queues/queue-jobs';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { api } from '../support/http';
import { eventually, newContact, Harness, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';

const TAG_ROUTE = 'POST /v1/contacts/:contactId/tags/:tagId';

describe('an event run executed in the events job', () => {
  let h: Harness;
  let db: DataSource;
  const tagCalls = async () =>
    ((await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body as Record<string, number>)[TAG_ROUTE] ?? 0;
  const dispatched = async (how: string) =>
    (await h.app.get(EngineMetrics).runDispatch.get()).values.find((v) => v.labels.how === how)?.value ?? 0;
  const finishedRun = (contactId: string, eventIndex = 0) =>
    eventually(async () => {
      const rows: { id: string; status: string; inbox_event_id: string }[] = await db.query(
        `SELECT r.id, r.status, r.inbox_event_id FROM runs r JOIN inbox_events e ON e.id = r.inbox_event_id
          WHERE r.contact_id = $1 AND r.rule_id = 'tag-vip' ORDER BY e.received_at`,
        [contactId],
      );
      const row = rows[eventIndex];
      return row && row.status !== 'pending' && row.status !== 'running' ? row : undefined;
    }, 20000);
  const actionRows = (runId: string) =>
    db.query(`SELECT status, reason, started_at, finished_at FROM action_results WHERE run_id = $1`, [runId]);

  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'tag.yaml': ['rule: tag-vip', 'on: contact.updated', 'do:', '  - add-tag: vip', ''].join('\n'),
        'later.yaml': [
          'rule: tag-later',
          'on: contact.created',
          'do:',
          '  - wait: 3s',
          '  - add-tag: customer',
          '',
        ].join('\n'),
      },
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
    });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  it('runs a free contact inline, and an actions job for the same run afterwards changes nothing', async () => {
    const contact = await newContact(h, 'Ines Inline');
    const [calls, inline] = [await tagCalls(), await dispatched('inline')];
    expect((await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)))).status).toBe(200);
    const run = await finishedRun(contact.id);
    expect(run.status).toBe('succeeded');
    expect(await dispatched('inline')).toBe(inline + 1);
    expect(await tagCalls()).toBe(calls + 1);
    const before = await actionRows(run.id);
    expect(before).toMatchObject([{ status: 'succeeded', reason: null }]);

    // What a retry, the reconciler or a fallback would do: an actions job for the finished run.
    const queue = h.app.get<Queue>(getQueueToken(ACTIONS_QUEUE));
    await h.app.get(ActionsQueue).add({ id: run.id, contactId: contact.id, priority: 'interactive' });
    await eventually(async () => !(await queue.getJob(actionJobId(run.id))), 20000);
    expect(await actionRows(run.id)).toEqual(before);
    expect(await tagCalls()).toBe(calls + 1);
  });

  it('queues the run of a contact another run holds, and executes it once after', async () => {
    const contact = await newContact(h, 'Bruno Busy');
    // The first run's tag call hangs: its contact is held while the second event is processed.
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'latency',
      count: 1,
      latencyMs: 1500,
      route: TAG_ROUTE,
    });
    const busy = await dispatched('busy');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    await eventually(async () => {
      const [a] = await db.query(
        `SELECT a.status FROM action_results a JOIN runs r ON r.id = a.run_id WHERE r.contact_id = $1`,
        [contact.id],
      );
      return a?.status === 'running';
    });
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', { ...contact, notes: 'again' })));
    const second = await finishedRun(contact.id, 1);
    expect(await dispatched('busy')).toBe(busy + 1);
    expect((await finishedRun(contact.id, 0)).status).toBe('succeeded');
    expect(second.status).toBe('succeeded');
    // The second run's guard sees the tag the first one wrote: one row, no second write.
    expect(await actionRows(second.id)).toMatchObject([{ status: 'skipped', reason: 'no_change' }]);
  });

  it("re-queues what a worker left unfinished when the processed event's job runs again", async () => {
    const contact = await newContact(h, 'Rita Requeue');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const run = await finishedRun(contact.id);
    await eventually(
      async () => !(await h.app.get<Queue>(getQueueToken('events')).getJob(`evt-${run.inbox_event_id}`)),
    );
    // The state a worker killed between the commit and the inline execution leaves: event
    // processed, run and action pending, no actions job.
    await db.query(`UPDATE runs SET status = 'pending', finished_at = NULL WHERE id = $1`, [run.id]);
    await db.query(
      `UPDATE action_results SET status = 'pending', started_at = NULL, finished_at = NULL WHERE run_id = $1`,
      [run.id],
    );
    const calls = await tagCalls();
    await h.app.get(EventsQueue).add(run.inbox_event_id);
    expect((await finishedRun(contact.id)).status).toBe('succeeded');
    expect(await actionRows(run.id)).toMatchObject([{ status: 'skipped', reason: 'no_change' }]);
    expect(await tagCalls()).toBe(calls);
    const [event] = await db.query(`SELECT status FROM inbox_events WHERE id = $1`, [run.inbox_event_id]);
    expect(event.status).toBe('processed');
  });

  it("gives a waiting run its wake job when the processed event's job runs again", async () => {
    const contact = await newContact(h, 'Wanda Wait');
    await deliver(h.url, JSON.stringify(contactEvent('contact.created', contact)));
    const laterRun = async () =>
      (
        await db.query(
          `SELECT id, status, inbox_event_id, timeline, waiting_until, finished_at
             FROM runs WHERE contact_id = $1 AND rule_id = 'tag-later'`,
          [contact.id],
        )
      )[0];
    const run = await eventually(async () => {
      const r = await laterRun();
      return r?.status === 'waiting' ? r : undefined;
    });
    // The state a worker killed between the `waiting` mark and adding the wake job leaves.
    const queue = h.app.get<Queue>(getQueueToken(ACTIONS_QUEUE));
    const wake = (await queue.getJobs(['delayed'])).find((j) => j.data.runId === run.id);
    expect(wake).toBeDefined();
    await wake!.remove();
    const events = h.app.get<Queue>(getQueueToken('events'));
    await eventually(async () => !(await events.getJob(`evt-${run.inbox_event_id}`)));
    expect((await laterRun()).status).toBe('waiting');

    // The reconciler would rescue the run 5-15 s late (it takes overdue waits only): held off
    // here, so the only way the run can finish is the event's job giving it its wake job again.
    const reconciler = jest
      .spyOn(h.app.get(ReconcilerService), 'reconcile')
      .mockResolvedValue({ events: 0, runs: 0 });
    try {
      await h.app.get(EventsQueue).add(run.inbox_event_id);
      const done = await eventually(async () => {
        const r = await laterRun();
        return r?.status === 'succeeded' ? r : undefined;
      }, 20000);
      expect(done.timeline.map((e: { step: string }) => e.step)).toEqual(['waiting', 'resumed']);
      expect(await actionRows(run.id)).toMatchObject([{ status: 'succeeded' }]);
    } finally {
      reconciler.mockRestore();
    }
  });
});
