// The pipeline's two promises end to end: one acting run per contact under concurrent triggers,
// and no event lost or doubled when Redis loses its queued jobs (Postgres holds the truth).
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/runtime/config/load-config';
import { ReconcilerService } from '../../src/pipeline/events-worker/reconciler.service';
import { EVENTS_QUEUE, eventJobId, eventsBatchJobId } from '../../src/runtime/queues/queue-jobs';
import { api } from '../support/http';
import { crm, eventually, newContact, Harness, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';

const counters = async (h: Harness) =>
  (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body as Record<string, number>;
const TAG_ROUTE = 'POST /v1/contacts/:contactId/tags/:tagId';

describe('pipeline: once-per-contact under concurrency', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rules: {
        'once.yaml': [
          'rule: welcome-once',
          // contact.created: loop protection (contact.updated only) cannot suppress the second
          // trigger first when the first run's write is already done; only once-per-contact may.
          'on: contact.created',
          'once: per-contact',
          'do:',
          '  - add-tag: customer',
          '',
        ].join('\n'),
      },
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
    });
  });
  afterAll(async () => h?.stop());

  it('creates one acting run when two triggers for the same contact arrive at once', async () => {
    const contact = await newContact(h, 'Olga Once');
    const [a, b] = await Promise.all([
      deliver(h.url, JSON.stringify(contactEvent('contact.created', contact))),
      deliver(h.url, JSON.stringify(contactEvent('contact.created', { ...contact, notes: 'second' }))),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const db = h.app.get(DataSource);
    const runs = await eventually(async () => {
      const rows = await db.query(
        `SELECT status, reason FROM runs WHERE contact_id = $1 AND rule_id = 'welcome-once' ORDER BY status`,
        [contact.id],
      );
      return rows.length === 2 &&
        rows.every((r: { status: string }) => r.status !== 'pending' && r.status !== 'running')
        ? rows
        : undefined;
    });
    expect(runs).toEqual([
      { status: 'succeeded', reason: null },
      { status: 'suppressed', reason: 'once_per_contact' },
    ]);
  });
});

describe('pipeline: Redis loses everything mid-stream', () => {
  let h: Harness;
  beforeAll(async () => {
    // A Redis database of its own, so flushing it touches no other test.
    const redisUrl = new URL(loadConfig().redis.url);
    redisUrl.pathname = '/7';
    h = await startHarness({
      rules: {
        'tag.yaml': ['rule: tag-vip', 'on: contact.updated', 'do:', '  - add-tag: vip', ''].join('\n'),
      },
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, REDIS_URL: redisUrl.toString() },
    });
  });
  afterAll(async () => h?.stop());

  it('processes every event exactly once after a FLUSHDB lost their queued jobs', async () => {
    const contacts = [];
    for (let i = 0; i < 12; i++) contacts.push(await newContact(h, `Flush ${i}`));
    const before = (await counters(h))[TAG_ROUTE] ?? 0;
    const db = h.app.get(DataSource);
    const events = h.app.get<Queue>(getQueueToken(EVENTS_QUEUE));
    // The reconciler is what gives lost work back; held off until the test has seen the loss
    // (its 10 s tick would otherwise race the flush).
    const reconciler = h.app.get(ReconcilerService);
    const reconcile = reconciler.reconcile.bind(reconciler);
    const held = jest.spyOn(reconciler, 'reconcile').mockResolvedValue({ events: 0, runs: 0 });
    try {
      // Paused: every delivery is acknowledged (in Postgres) and its job waits in Redis.
      await events.pause();
      const deliveries = contacts.map((c) =>
        deliver(h.url, JSON.stringify(contactEvent('contact.updated', c))),
      );
      expect((await Promise.all(deliveries)).map((d) => d.status)).toEqual(contacts.map(() => 200));
      const rows: { id: string; batch_key: string }[] = await db.query(
        `SELECT id, batch_key FROM inbox_events WHERE status = 'pending' AND contact_id = ANY($1)`,
        [contacts.map((c) => c.id)],
      );
      expect(rows).toHaveLength(contacts.length);
      // A lone event has its own job, events stored together share their batch's job.
      const jobOf = async (r: { id: string; batch_key: string }) =>
        (await events.getJob(eventJobId(r.id))) ?? (await events.getJob(eventsBatchJobId(r.batch_key)));
      const queued = async () => (await Promise.all(rows.map(jobOf))).filter(Boolean);
      await eventually(async () => (await queued()).length === rows.length);

      await h.redis.flushdb(); // the jobs, and the pause with them
      expect(await queued()).toEqual([]);

      held.mockRestore();
      // Every pending event found in Postgres and its job added again (their runs follow).
      expect((await reconcile(0)).events).toBe(contacts.length);
    } finally {
      held.mockRestore();
    }

    await eventually(
      async () => {
        const [{ n }] = await db.query(
          `SELECT count(*)::int AS n FROM runs WHERE rule_id = 'tag-vip' AND status = 'succeeded'`,
        );
        return n === contacts.length;
      },
      40000,
      200,
    );
    for (const c of contacts) {
      const fresh = (await crm(h, 'GET', `/v1/contacts/${c.id}`)).body;
      expect(fresh.tags.map((t: { name: string }) => t.name)).toContain('vip');
    }
    expect(((await counters(h))[TAG_ROUTE] ?? 0) - before).toBe(contacts.length);
  }, 60000);
});
