// Helpers of the segments benchmark: a sweep waited for to the end of its actions, membership
// changes made through the CRM API, and a webhook receiver standing in for the engine's intake.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Contact } from '@crm-rules/crm-contract';
import { ContactMirrorService } from '../src/pipeline/contact-mirror/contact-mirror.service';
import { sweepLeaveTriggerKey, sweepTriggerKey } from '../src/pipeline/segments/sweeps/sweep-jobs';
import { SweepQueueService } from '../src/pipeline/segments/sweeps/sweep-queue.service';

export const VIP = '7a000000-0000-4000-8000-000000000002';
export const QUALIFIED = '5a000000-0000-4000-8000-000000000002';
export const CUSTOMER = '5a000000-0000-4000-8000-000000000003';

export type SweepFigures = Awaited<ReturnType<typeof sweep>>;

/** One manual sweep, waited for until its actions are done. */
export async function sweep(app: INestApplicationContext, ds: DataSource, rule: string) {
  const tick = new Date();
  const t = performance.now();
  await app.get(SweepQueueService).enqueue(rule, tick, 'manual');
  const keys = [sweepTriggerKey(rule, tick), sweepLeaveTriggerKey(rule, tick)];
  for (;;) {
    const [s] = await ds.query(
      `SELECT status, detail, members, evaluation_ms, extract(epoch FROM finished_at - started_at) * 1000 AS job_ms
         FROM segment_sweeps WHERE rule_id = $1 AND tick_at = $2`,
      [rule, tick],
    );
    if (s?.status === 'failed' || s?.status === 'skipped') throw new Error(`sweep ${s.status}: ${s.detail}`);
    if (s?.status === 'succeeded') {
      const [a] = await ds.query(
        `SELECT count(*) FILTER (WHERE a.status IN ('pending', 'running'))::int AS open,
                count(*) FILTER (WHERE a.status = 'succeeded')::int AS useful, count(DISTINCT r.id)::int AS runs
           FROM runs r JOIN action_results a ON a.run_id = r.id WHERE r.trigger_key = ANY($1::text[])`,
        [keys],
      );
      if (a.open === 0)
        return {
          ms: Math.round(performance.now() - t),
          jobMs: Math.round(Number(s.job_ms)),
          members: s.members,
          evaluationMs: s.evaluation_ms,
          useful: a.useful,
          runs: a.runs,
        };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Adds the vip tag to `enter` non-members who match the rest of the filter, removes it from `leave` members. */
export async function changeMemberships(ds: DataSource, crmUrl: string, enter: number, leave: number) {
  const base = `stage_id = ANY($1::text[]) AND status = 'active' AND NOT is_blocked AND created_at >= now() - interval '364 days'`;
  const entering: { id: string }[] = await ds.query(
    `SELECT id FROM contact_mirror WHERE ${base} AND NOT tag_ids && $2::text[] LIMIT $3`,
    [[QUALIFIED, CUSTOMER], [VIP], enter],
  );
  const leaving: { id: string }[] = await ds.query(
    `SELECT id FROM contact_mirror WHERE ${base} AND tag_ids && $2::text[] LIMIT $3`,
    [[QUALIFIED, CUSTOMER], [VIP], leave],
  );
  const call = async (method: string, id: string) => {
    const res = await fetch(`${crmUrl}/v1/contacts/${id}/tags/${VIP}`, {
      method,
      headers: { authorization: 'Bearer sk_demo_full' },
    });
    if (!res.ok) throw new Error(`${method} tag: HTTP ${res.status}`);
  };
  const jobs = [
    ...entering.map((c) => () => call('POST', c.id)),
    ...leaving.map((c) => () => call('DELETE', c.id)),
  ];
  for (let i = 0; i < jobs.length; i += 20) await Promise.all(jobs.slice(i, i + 20).map((j) => j()));
  return { entered: entering.length, left: leaving.length };
}

/**
 * Stands in for the engine's webhook intake (not part of this composition): every contact.*
 * event the CRM delivers goes to ContactMirrorService.applyEvent, as the event pipeline does.
 */
export async function startWebhookReceiver(mirror: ContactMirrorService) {
  let received = 0;
  let lastAt = Date.now();
  // Like the real intake: acknowledge at once, apply afterwards, one at a time. Applying before
  // the 2xx would let a burst of thousands of deliveries time out and disable the subscription.
  let applying = Promise.resolve();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: Contact };
      applying = applying.then(() =>
        mirror.applyEvent(event.type, event.data).then(
          () => {
            received++;
            lastAt = Date.now();
          },
          (err) => console.error(`applyEvent failed: ${(err as Error).message}`),
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let baseline = 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks/crm`,
    /** Waits for `expected` more deliveries since the last call, then for a quiet moment. */
    settled: async (expected: number) => {
      const target = baseline + expected;
      let logged = Date.now();
      const deadline = Date.now() + 300_000;
      while (received < target || Date.now() - lastAt < 300) {
        await new Promise((r) => setTimeout(r, 50));
        if (Date.now() > deadline) throw new Error(`webhooks: ${received - baseline} of ${expected} arrived`);
        if (Date.now() - logged > 5000) {
          logged = Date.now();
          console.log(`  waiting for webhooks: ${received - baseline}/${expected}`);
        }
      }
      baseline = received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
