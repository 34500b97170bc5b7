// The intake's group commit goes to the worker as one events job (one fetch and finish, one inbox
// read), and its events are still processed each on its own: a failing one is retried in a job of
// its own without holding back its neighbours, and the reconciler finds a pending event's batch job.
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { ReconcilerService } from '../../src/pipeline/events-worker/reconciler.service';
import { IntakeService } from '../../src/pipeline/intake/intake.service';
import { signatureHeader } from '../../src/language/net/verify-signature';
import { EVENTS_QUEUE, eventJobId, eventsBatchJobId } from '../../src/runtime/queues/queue-jobs';
import { crm, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { api } from '../support/http';
import { contactEvent, messageEvent, TEST_WEBHOOK_SECRET } from '../support/webhooks';

const READ_CONTACT = 'GET /v1/contacts/:contactId';
const RULES = {
  'vip.yaml': [
    'rule: vip-on-enterprise',
    'on: contact.updated',
    'if:',
    '  all:',
    '    - { fact: contact.customFields.plan, operator: equal, value: enterprise }',
    'do:',
    '  - add-tag: vip',
    '',
  ].join('\n'),
  'reply.yaml': ['rule: tag-on-message', 'on: message.created', 'do:', '  - add-tag: customer', ''].join(
    '\n',
  ),
};

describe('events jobs of intake batches', () => {
  let h: Harness;
  let db: DataSource;
  let intake: IntakeService;
  let queue: Queue;

  /** Deliveries handed to the intake in one event-loop turn: one group commit, hence one batch. */
  const acceptTogether = async (events: object[]) => {
    const bodies = events.map((e) => JSON.stringify(e));
    const outcomes = await Promise.all(
      bodies.map((body) => {
        const check = intake.checkHeader(signatureHeader(TEST_WEBHOOK_SECRET, body));
        if (!check.ok) throw new Error('signature header refused');
        return intake.accept(Buffer.from(body), check.header);
      }),
    );
    return outcomes.map((o) => {
      if (o.status !== 200) throw new Error(`refused: ${JSON.stringify(o.body)}`);
      return o.body.id;
    });
  };
  const inboxRows = (ids: string[]) =>
    db.query(
      `SELECT id, status, attempts, batch_key, last_error FROM inbox_events WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  const tagsOf = async (contactId: string) =>
    ((await crm(h, 'GET', `/v1/contacts/${contactId}`)).body.tags as { name: string }[]).map((t) => t.name);
  /** The job ids BullMQ's event stream says were added to the events queue since `from`. */
  const addedJobs = async (from: string) =>
    (await h.redis.xrange(`${h.config.redis.prefix}:${EVENTS_QUEUE}:events`, from, '+'))
      .map(([, fields]) => Object.fromEntries(fields.flatMap((v, i) => (i % 2 ? [] : [[v, fields[i + 1]]]))))
      .filter((e) => e.event === 'added')
      .map((e) => e.jobId as string);
  const streamNow = async () => {
    const [last] = await h.redis.xrevrange(
      `${h.config.redis.prefix}:${EVENTS_QUEUE}:events`,
      '+',
      '-',
      'COUNT',
      1,
    );
    return last ? `(${last[0]}` : '-';
  };

  beforeAll(async () => {
    h = await startHarness({
      rules: RULES,
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, CRM_MAX_RETRIES: '0', RULES_WATCH: 'false' },
    });
    db = h.app.get(DataSource);
    intake = h.app.get(IntakeService);
    queue = h.app.get<Queue>(getQueueToken(EVENTS_QUEUE));
  });
  afterAll(async () => h?.stop());
  afterEach(async () => {
    await api(h.sandboxUrl, 'DELETE', '/_sandbox/faults');
    await queue.resume();
  });

  it('processes a group commit in one job; a failing event retries alone, its neighbours do not wait', async () => {
    const contacts = await Promise.all(
      ['Ada', 'Ben', 'Cy', 'Di'].map((name) => newContact(h, `${name} Batch`)),
    );
    const [ada, ben] = contacts;
    // Each contact updated three times (the last copy wins in the mirror); Ada and Ben are on the
    // enterprise plan, so their updates match and tag them.
    const updates = contacts.flatMap((c, n) =>
      [1, 2, 3].map((v) =>
        contactEvent('contact.updated', {
          ...c,
          notes: `v${v}`,
          updatedAt: new Date(Date.now() + v * 1000).toISOString(),
          customFields: { ...(c.customFields as object), plan: n < 2 ? 'enterprise' : 'free' },
        }),
      ),
    );
    // The message event's contact read fails once (500, no gateway retry): its first attempt fails.
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', { kind: 'error500', count: 1, route: READ_CONTACT });
    // Warms the secrets cache; processed, so its job (added after the 200) is behind us in the stream.
    const warmUp = await acceptTogether([contactEvent('contact.updated', contacts[3])]);
    await eventually(async () => (await inboxRows(warmUp))[0].status === 'processed');
    const from = await streamNow();
    const ids = await acceptTogether([messageEvent(ben.id), ...updates]);

    const rows = await inboxRows(ids);
    expect(new Set(rows.map((r: { batch_key: string }) => r.batch_key)).size).toBe(1);
    const batchJob = eventsBatchJobId(rows[0].batch_key);
    const done = await eventually(async () => {
      const now = await inboxRows(ids);
      return now.every((r: { status: string }) => r.status === 'processed') ? now : undefined;
    }, 30000);
    // Only the message event failed an attempt (its error names the failed contact read).
    const failedAttempts = done
      .filter((r: { attempts: number }) => r.attempts > 0)
      .map((r: { id: string; last_error: string }) => [r.id, r.last_error]);
    expect(failedAttempts).toEqual([[ids[0], expect.stringContaining('500')]]);
    // One job carried the thirteen events; the failed one got a job of its own for its retry.
    const added = await addedJobs(from);
    expect(added).toEqual([batchJob, eventJobId(ids[0])]);
    const attempts = Object.fromEntries(
      done.map((r: { id: string; attempts: number }) => [r.id, r.attempts]),
    );
    expect(attempts[ids[0]]).toBe(1);
    expect(ids.slice(1).every((id) => attempts[id] === 0)).toBe(true);

    // An event is processed when its runs are written; they act right after (inline), so wait for it.
    const finished = async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM runs WHERE inbox_event_id = ANY($1::uuid[]) AND status IN ('pending', 'running')`,
          [ids],
        )
      )[0].n === 0;
    await eventually(finished, 20000);
    expect(await tagsOf(ada.id)).toContain('vip');
    expect(await tagsOf(ben.id)).toEqual(expect.arrayContaining(['vip', 'customer']));
    expect(await tagsOf(contacts[2].id)).not.toContain('vip');
    // Every event has its decision: runs for the events a rule matched (the matching updates acted
    // once per contact: the later updates' guards see the tag, no second write), the unmatched
    // decision on its own row for the others (no runs: issue 35).
    const runs = await db.query(
      `SELECT inbox_event_id, rule_id, status FROM runs WHERE inbox_event_id = ANY($1::uuid[])`,
      [ids],
    );
    const unmatched = await db.query(
      `SELECT id, inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched FROM inbox_events WHERE id = ANY($1::uuid[]) AND unmatched_rules IS NOT NULL`,
      [ids],
    );
    const decided = new Set([
      ...runs.map((r: { inbox_event_id: string }) => r.inbox_event_id),
      ...unmatched.map((r: { id: string }) => r.id),
    ]);
    expect(decided).toEqual(new Set(ids));
    expect(runs).toHaveLength(7);
    expect(unmatched).toHaveLength(6);
    for (const row of unmatched) expect(row.unmatched).toMatchObject({ rules: 1 });
    const [mirrored] = await db.query(`SELECT raw FROM contact_mirror WHERE id = $1`, [contacts[3].id]);
    expect(mirrored.raw.notes).toBe('v3');
  }, 60000);

  it('the reconciler leaves a pending batch to its live job, and re-adds its events once the job is gone', async () => {
    const contact = await newContact(h, 'Rex Reconcile');
    await queue.pause(); // workers take nothing: the batch stays pending with its job waiting
    const from = await streamNow();
    const ids = await acceptTogether(
      [1, 2, 3].map((v) => contactEvent('contact.updated', { ...contact, notes: `r${v}` })),
    );
    const [{ batch_key: batchKey }] = await inboxRows(ids);
    // The intake adds the job right after the commit that answered: wait for it, as the 5 s staleness would.
    await eventually(async () => Boolean(await queue.getJob(eventsBatchJobId(batchKey))));
    const reconciler = h.app.get(ReconcilerService);
    await reconciler.reconcile(0);
    expect(await addedJobs(from)).toEqual([eventsBatchJobId(batchKey)]);

    // Redis lost the job (a flush, an operator's clean-up): each event gets a job of its own.
    await (await queue.getJob(eventsBatchJobId(batchKey)))!.remove();
    await eventually(async () => {
      // Again until done: the engine's own reconcile tick may be running (a second call then returns at once).
      await reconciler.reconcile(0);
      const jobs = await Promise.all(ids.map((id) => queue.getJob(eventJobId(id))));
      return jobs.every(Boolean);
    });
    await queue.resume();
    await eventually(async () =>
      (await inboxRows(ids)).every((r: { status: string }) => r.status === 'processed'),
    );
  }, 60000);
});
