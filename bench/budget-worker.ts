// One engine-like worker process of the budget benchmark (forked by bench/budget.ts).
//   gateway: a CrmGateway sharing the Redis budget with the other worker; a bulk backlog
//            queued at start plus interactive calls arriving at a steady pace.
//   bullmq:  a BullMQ Worker with the fixed-window limiter, calling the CRM client directly.
import 'reflect-metadata';
import { Worker } from 'bullmq';
import { loadConfig } from '../src/runtime/config/load-config';
import { CrmClient } from '../src/outbound/crm-gateway/crm-client';
import { CrmGateway } from '../src/outbound/crm-gateway/crm-gateway.service';
import { createCrmRedis } from '../src/outbound/crm-gateway/crm-redis';
import { redisConnection } from '../src/runtime/queues/redis-connection';

export interface WorkerSpec {
  mode: 'gateway' | 'bullmq';
  sandboxUrl: string;
  redisUrl: string;
  prefix: string;
  apiKey: string;
  limit: number;
  windowMs: number;
  bulkMinShare: number;
  startAt: number;
  bulk: number;
  interactiveAtStart: number;
  trickleEveryMs: number;
  trickleUntil: number;
  contactIds: string[];
  bulkTagId: string;
  interactiveTagId: string;
  queueName: string;
}

export interface CallRecord {
  kind: 'bulk' | 'interactive' | 'interactive-start';
  queuedAt: number;
  /** When the budget granted the (last) attempt its slot. */
  grantedAt: number;
  doneAt: number;
  ok: boolean;
  /** Bulk calls of this process still pending when this one was queued. */
  bulkPendingAtQueue: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function runGateway(spec: WorkerSpec): Promise<unknown> {
  const config = loadConfig({
    REDIS_URL: spec.redisUrl,
    REDIS_PREFIX: spec.prefix,
    CRM_BASE_URL: spec.sandboxUrl,
    CRM_API_KEY: spec.apiKey,
    CRM_RATE_LIMIT: String(spec.limit),
    CRM_RATE_WINDOW_MS: String(spec.windowMs),
    CRM_BULK_MIN_SHARE: String(spec.bulkMinShare),
    LOG_LEVEL: 'error',
  });
  const redis = createCrmRedis(spec.redisUrl);
  const gateway = new CrmGateway(config, redis);
  const records: CallRecord[] = [];
  const calls: Promise<void>[] = [];
  let bulkPending = 0;
  const call = (kind: CallRecord['kind'], i: number) => {
    const queuedAt = Date.now();
    let grantedAt = queuedAt;
    const bulkPendingAtQueue = bulkPending;
    const isBulk = kind === 'bulk';
    if (isBulk) bulkPending++;
    const contactId = spec.contactIds[i % spec.contactIds.length];
    const tagId = isBulk ? spec.bulkTagId : spec.interactiveTagId;
    const p = gateway
      .addTag(contactId, tagId, {
        priority: isBulk ? 'bulk' : 'interactive',
        onGranted: () => (grantedAt = Date.now()),
      })
      .then(
        () => true,
        () => false,
      )
      .then((ok) => {
        if (isBulk) bulkPending--;
        records.push({ kind, queuedAt, grantedAt, doneAt: Date.now(), ok, bulkPendingAtQueue });
      });
    calls.push(p);
  };

  await sleep(spec.startAt - Date.now());
  for (let i = 0; i < spec.interactiveAtStart; i++) call('interactive-start', i);
  for (let i = 0; i < spec.bulk; i++) call('bulk', i);
  for (let i = 0; Date.now() < spec.trickleUntil; i++) {
    // Offset the two workers' trickles so their interactive calls do not arrive in pairs.
    await sleep(spec.trickleEveryMs * (0.5 + Math.random()));
    call('interactive', i);
  }
  await Promise.all(calls);
  await gateway.close();
  await redis.quit();
  return { records };
}

async function runBullmq(spec: WorkerSpec): Promise<unknown> {
  const client = new CrmClient({ baseUrl: spec.sandboxUrl, apiKey: spec.apiKey, timeoutMs: 10_000 });
  let ok = 0;
  let refused = 0;
  const worker = new Worker(
    spec.queueName,
    async (job) => {
      const { contactId, tagId } = job.data as { contactId: string; tagId: string };
      // No retry on purpose: the point is what the fixed window lets through.
      await client.addTag(contactId, tagId).then(
        () => ok++,
        () => refused++,
      );
    },
    {
      connection: redisConnection(spec.redisUrl),
      prefix: `${spec.prefix}:bull`,
      concurrency: 50,
      limiter: { max: spec.limit, duration: spec.windowMs },
    },
  );
  await new Promise<void>((resolve) => process.once('message', () => resolve())); // parent: "stop"
  await worker.close();
  return { ok, refused };
}

process.once('message', (spec: WorkerSpec) => {
  const run = spec.mode === 'gateway' ? runGateway(spec) : runBullmq(spec);
  if (spec.mode === 'bullmq') process.send?.({ ready: true });
  run.then(
    (result) => process.send?.({ result }, () => process.exit(0)),
    (err: unknown) => {
      process.stderr.write(`worker failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
});
