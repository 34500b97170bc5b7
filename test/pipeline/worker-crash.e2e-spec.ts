import { DataSource } from 'typeorm';
import { CONTACT_LEASE_TTL_MS } from '../../src/pipeline/execution/contact-lease';
import { ACTIONS_QUEUE, actionJobId, EVENTS_QUEUE, eventJobId } from '../../src/runtime/queues/queue-jobs';
import { FAST_RECOVERY } from '../../src/runtime/queues/worker-options';
import { api } from '../support/http';
import { crm, eventually, newContact, Harness, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';
import { ensureBuilt, WorkerProcesses } from '../support/worker-process';

const TAG_ROUTE = 'POST /v1/contacts/:contactId/tags/:tagId';

// A worker dies in the middle of a CRM call. Another worker must finish the run, and the CRM must
// see every write exactly once: the interrupted write is detected by re-reading the contact.
describe('a worker killed mid-run', () => {
  let h: Harness;
  const workers = new WorkerProcesses();
  const startWorker = () => workers.start(h);

  beforeAll(async () => {
    ensureBuilt();
    h = await startHarness({
      rules: {
        'two.yaml': [
          'rule: two-tags',
          'on: contact.updated',
          'do:',
          '  - add-tag: vip',
          '  - add-tag: customer',
          '',
        ].join('\n'),
      },
      subscribe: false,
      env: { ROLE: 'api', CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
    });
  });
  afterAll(async () => {
    workers.killAll();
    await h?.stop();
  });

  it('is finished by another worker and every write reaches the CRM exactly once', async () => {
    const contact = await newContact(h, 'Kim Crash');
    // The first tag call is applied at once but its answer is held back for 30 s: the worker is
    // certainly mid-call, with the write done, when it is killed (no race with the re-read below).
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'lost-answer',
      count: 1,
      latencyMs: 30_000,
      route: TAG_ROUTE,
    });
    const before = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[TAG_ROUTE] ?? 0;

    // Booted before the event: the 20 s below are the write's, not a loaded machine's boot.
    const booting = startWorker();
    await booting.ready;
    const first = booting.child;
    const reply = await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    expect(reply.status).toBe(200);
    const db = h.app.get(DataSource);
    const tagsInCrm = async (): Promise<string[]> =>
      (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags
        .map((t: { name: string }) => t.name)
        .sort();
    // Polled 4 times a second: faster would spend the sandbox's 300 calls per minute (429, no tags).
    await eventually(async () => (await tagsInCrm()).includes('vip'), 20000, 250);
    first.kill('SIGKILL');

    // Nothing but BullMQ's stalled-job check can give the job back here (no reconciler runs: the
    // engine is ROLE=api). It does so once the dead worker's lock has expired and two checks
    // (stalledInterval apart) saw it; the contact's lease (CONTACT_LEASE_TTL_MS) expires sooner,
    // so the new worker is not turned away. What is asserted is that mechanism, not how long it took.
    const { lockDuration } = FAST_RECOVERY;
    expect(CONTACT_LEASE_TTL_MS).toBeLessThan(lockDuration);
    await startWorker().ready;
    const run = await eventually(
      async () => {
        const [row] = await db.query(
          `SELECT id, status, inbox_event_id FROM runs WHERE contact_id = $1 AND rule_id = 'two-tags'`,
          [contact.id],
        );
        return row?.status === 'succeeded' ? row : undefined;
      },
      60000,
      100,
    );
    // The mechanism: the stalled check gave the dead worker's job back, once, and no attempt
    // failed (the lease did not turn it into a busy or failed job). The run was executed either in
    // its event's job (inline, the contact being free) or in its own actions job: the job that
    // stalled is the one that held it, so both queues' event logs are read.
    const eventsOf = async (queue: string, jobId: string) =>
      (await h.redis.xrange(`${h.config.redis.prefix}:${queue}:events`, '-', '+'))
        .map(([, fields]) =>
          Object.fromEntries(fields.flatMap((v, i) => (i % 2 ? [] : [[v, fields[i + 1]]]))),
        )
        .filter((e) => e.jobId === jobId)
        .map((e) => e.event as string);
    const ofJobs = [
      ...(await eventsOf(EVENTS_QUEUE, eventJobId(run.inbox_event_id))),
      ...(await eventsOf(ACTIONS_QUEUE, actionJobId(run.id))),
    ];
    expect(ofJobs.filter((e) => e === 'stalled')).toHaveLength(1);
    expect(ofJobs).not.toContain('failed');

    expect(await tagsInCrm()).toEqual(['customer', 'vip']);
    const after = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[TAG_ROUTE];
    expect(after - before).toBe(2);
    const results = await db.query(
      `SELECT action_index, status, reason FROM action_results WHERE run_id = $1 ORDER BY action_index`,
      [run.id],
    );
    // The interrupted write had reached the CRM; the re-read shows it, so it is not repeated.
    expect(results).toEqual([
      { action_index: 0, status: 'skipped', reason: 'no_change' },
      { action_index: 1, status: 'succeeded', reason: null },
    ]);
  }, 120000);
});
