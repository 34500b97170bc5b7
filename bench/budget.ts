// npm run bench:budget: the shared CRM budget under a backlog, against the sandbox.
// The sandbox (strict sliding-window log, 300 per 6 s) runs in this process, so every arrival
// is timed on one clock; two forked workers share the budget through Redis.
//   [1] a bulk backlog of 3x the budget plus interactive calls arriving all along;
//   [2] an interactive flood, to show bulk keeps its guaranteed share;
//   [3] the backlog of [1] through BullMQ's fixed-window limiter, for comparison.
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { CrmClient } from '../src/outbound/crm-gateway/crm-client';
import { redisConnection } from '../src/runtime/queues/redis-connection';
import { startSandbox } from '@crm-rules/crm-sandbox';
import type { CallRecord, WorkerSpec } from './budget-worker';
import { printGatewayReport, printFixedWindowReport } from './budget-report';
import type { Arrival } from './budget-stats';

const LIMIT = 300;
const WINDOW_MS = 6_000;
const BULK_MIN_SHARE = 0.2;
const BACKLOG = 3 * LIMIT; // 3× the budget, split over two workers
const INTERACTIVE_AT_START = BACKLOG / 10;
const TRICKLE_EVERY_MS = 250; // per worker: ~8 interactive calls a second in all
const API_KEY = 'sk_demo_full';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BULK_TAG = '7a000000-0000-4000-8000-000000000004'; // demo fixture: dormant
const INTERACTIVE_TAG = '7a000000-0000-4000-8000-000000000002'; // demo fixture: vip

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every /v1 request the in-process sandbox receives, with its answer's status. */
function recordArrivals(): Arrival[] {
  const arrivals: Arrival[] = [];
  const open = new Map<IncomingMessage, Arrival>();
  subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage };
    const url = request.url ?? '';
    if (!url.startsWith('/v1/')) return;
    const kind = url.includes(BULK_TAG) ? 'bulk' : url.includes(INTERACTIVE_TAG) ? 'interactive' : 'other';
    const arrival: Arrival = { at: performance.now(), kind };
    arrivals.push(arrival);
    open.set(request, arrival);
  });
  subscribe('http.server.response.finish', (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const arrival = open.get(request);
    if (arrival) arrival.status = response.statusCode;
    open.delete(request);
  });
  return arrivals;
}

function forkWorker(spec: WorkerSpec): {
  child: ChildProcess;
  result: Promise<unknown>;
  ready: Promise<void>;
} {
  const child = fork(join(__dirname, 'budget-worker.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const result = new Promise<unknown>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean; result?: unknown }) =>
      m.ready ? onReady() : resolve(m.result),
    );
    child.on('exit', (code) => (code ? reject(new Error(`worker exited with ${code}`)) : undefined));
  });
  child.send(spec);
  return { child, result, ready };
}

type BaseSpec = Omit<WorkerSpec, 'mode' | 'startAt' | 'trickleUntil'>;

async function gatewayPhase(title: string, base: BaseSpec, arrivals: Arrival[], saturating: 'bulk' | 'both') {
  const startAt = Date.now() + 1_500; // both workers connected and ready
  const trickleUntil = base.trickleEveryMs > 0 ? startAt + 3 * WINDOW_MS : 0;
  const spec: WorkerSpec = {
    ...base,
    prefix: `${base.prefix}:${saturating}`,
    mode: 'gateway',
    startAt,
    trickleUntil,
  };
  const offset = performance.now() - Date.now(); // worker times (Date.now) → this clock
  const workers = [forkWorker(spec), forkWorker(spec)];
  const results = (await Promise.all(workers.map((w) => w.result))) as { records: CallRecord[] }[];
  const records = results
    .flatMap((r) => r.records)
    .map((r) => ({
      ...r,
      queuedAt: r.queuedAt + offset,
      grantedAt: r.grantedAt + offset,
      doneAt: r.doneAt + offset,
    }));
  printGatewayReport({
    title,
    arrivals: [...arrivals],
    records,
    limit: LIMIT,
    windowMs: WINDOW_MS,
    saturating,
  });
}

async function fixedWindowPhase(base: BaseSpec, arrivals: Arrival[]) {
  const spec: WorkerSpec = { ...base, mode: 'bullmq', startAt: 0, trickleUntil: 0 };
  const queue = new Queue(spec.queueName, {
    connection: redisConnection(REDIS_URL),
    prefix: `${spec.prefix}:bull`,
  });
  const workers = [forkWorker(spec), forkWorker(spec)];
  await Promise.all(workers.map((w) => w.ready));
  const jobs = Array.from({ length: BACKLOG }, (_, i) => {
    const interactive = i % 10 === 0;
    return {
      name: 'add-tag',
      data: {
        contactId: spec.contactIds[i % spec.contactIds.length],
        tagId: interactive ? INTERACTIVE_TAG : BULK_TAG,
      },
      opts: { priority: interactive ? 1 : 2, removeOnComplete: true },
    };
  });
  await queue.addBulk(jobs);
  const deadline = Date.now() + 8 * WINDOW_MS;
  while (arrivals.filter((a) => a.status !== undefined).length < BACKLOG && Date.now() < deadline)
    await sleep(200);
  for (const w of workers) w.child.send('stop');
  await Promise.all(workers.map((w) => w.result));
  await queue.obliterate({ force: true });
  await queue.close();
  printFixedWindowReport({ arrivals: [...arrivals], limit: LIMIT, windowMs: WINDOW_MS });
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } });
  const prefix = `bench-budget-${process.pid}-${Date.now()}`;
  const contacts = await new CrmClient({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    timeoutMs: 5_000,
  }).listContacts({ limit: 100 });
  const base = {
    sandboxUrl: sandbox.url,
    redisUrl: REDIS_URL,
    prefix,
    apiKey: API_KEY,
    limit: LIMIT,
    windowMs: WINDOW_MS,
    bulkMinShare: BULK_MIN_SHARE,
    bulk: (BACKLOG - INTERACTIVE_AT_START) / 2,
    interactiveAtStart: INTERACTIVE_AT_START / 2,
    trickleEveryMs: TRICKLE_EVERY_MS,
    contactIds: contacts.data.filter((c) => !c.isBlocked).map((c) => c.id),
    bulkTagId: BULK_TAG,
    interactiveTagId: INTERACTIVE_TAG,
    queueName: 'bench-fixed-window',
  };
  process.stdout.write(
    `CRM budget benchmark: sandbox limit ${LIMIT} per ${WINDOW_MS} ms (strict sliding window), 2 worker processes,\n` +
      `backlog ${BACKLOG} calls (3x the budget: ${BACKLOG - INTERACTIVE_AT_START} bulk + ${INTERACTIVE_AT_START} interactive) ` +
      `plus interactive calls every ~${TRICKLE_EVERY_MS} ms per worker for 3 windows; POST addTag on demo contacts.\n`,
  );
  const arrivals = recordArrivals();
  // Each phase starts from a quiet CRM: a reset sandbox and a window without calls.
  const fresh = async () => {
    await sleep(WINDOW_MS + 500);
    await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
    arrivals.length = 0;
  };
  try {
    await fresh();
    await gatewayPhase(
      '[1] CrmGateway, shared Redis budget: bulk backlog + interactive trickle',
      base,
      arrivals,
      'bulk',
    );
    await fresh();
    const flood = { ...base, bulk: LIMIT / 2, interactiveAtStart: LIMIT, trickleEveryMs: 0 };
    await gatewayPhase(
      '[2] CrmGateway under an interactive flood: bulk keeps its share',
      flood,
      arrivals,
      'both',
    );
    await fresh();
    await fixedWindowPhase(base, arrivals);
  } finally {
    await sandbox.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
