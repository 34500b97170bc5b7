// The chaos suite's scenarios (bench/chaos.ts runs them): what breaks, and when the fault ends.
import { MESSAGES_ROUTE, refusalsUsedUp, refuseSuccessMarks } from './chaos-messages';
import { EngineProcess, PrivatePostgres, PrivateRedis, SandboxProcess, sleep } from './chaos-services';

export interface Ctx {
  redis: PrivateRedis;
  pg: PrivatePostgres;
  sandbox: SandboxProcess;
  api: EngineProcess;
  workers: EngineProcess[];
  apiUrl: string;
}

export interface Scenario {
  name: string;
  duplicateShare?: number;
  poison?: number;
  /** Sandbox faults armed before the deliveries (how many 429s are injected, to tell them apart). */
  faults?: { kind: string; count: number; latencyMs?: number; retryAfterSec?: number; route?: string }[];
  /** Breaks something while the work drains; returns when the fault ended. */
  fault?(ctx: Ctx): Promise<number>;
  /** Before the deliveries (e.g. a trigger in Postgres). */
  prepare?(ctx: Ctx): Promise<void>;
  /** The contacts are greeted too (chaos-messages.ts): customer-facing writes are counted per customer. */
  greet?: boolean;
}

const TAG_ROUTE = 'POST /v1/contacts/:contactId/tags/:tagId';

/** Every scenario, for `events` deliveries each; `settleMs` bounds any wait. */
export function scenarios(events: number, settleMs: number): Scenario[] {
  return [
    {
      name: 'kill -9 of workers during a drain (x3)',
      fault: async (ctx) => {
        for (let i = 0; i < 3; i++) {
          await sleep(1_500);
          const victim = ctx.workers[i % ctx.workers.length];
          await victim.kill9();
          await sleep(500);
          victim.start();
        }
        return Date.now();
      },
    },
    {
      name: 'Redis restart (state lost)',
      fault: async (ctx) => {
        await sleep(1_500);
        await ctx.redis.stop();
        await sleep(2_000);
        await ctx.redis.start();
        return Date.now();
      },
    },
    {
      name: 'Redis FLUSHALL',
      fault: async (ctx) => {
        await sleep(1_500);
        await ctx.redis.flushall();
        return Date.now();
      },
    },
    {
      name: 'Postgres restart',
      fault: async (ctx) => {
        await sleep(1_000);
        ctx.pg.stop();
        await sleep(3_000);
        ctx.pg.start();
        return Date.now();
      },
    },
    { name: 'CRM 5xx storm', faults: [{ kind: 'error500', count: 40, route: TAG_ROUTE }] },
    {
      name: 'CRM timeout storm',
      faults: [{ kind: 'latency', count: 15, latencyMs: 4_000, route: TAG_ROUTE }],
    },
    {
      name: '429 storm, Retry-After 600 s',
      faults: [{ kind: 'rate429', count: 5, retryAfterSec: 600 }],
    },
    { name: '20% duplicate deliveries', duplicateShare: 0.2 },
    { name: 'poison events (unknown or malformed contacts)', poison: Math.max(6, Math.round(events / 10)) },
    {
      name: 'send: 2xx answers cut short (15)',
      greet: true,
      faults: [{ kind: 'truncated-answer', count: 15, route: MESSAGES_ROUTE }],
    },
    {
      name: 'send: connection cut after the request (15)',
      greet: true,
      faults: [{ kind: 'cut-connection', count: 15, route: MESSAGES_ROUTE }],
    },
    {
      name: 'send: success mark refused by Postgres (15)',
      greet: true,
      prepare: (ctx) => refuseSuccessMarks(ctx.pg.url),
      fault: (ctx) => refusalsUsedUp(ctx.pg.url, settleMs),
    },
  ];
}
