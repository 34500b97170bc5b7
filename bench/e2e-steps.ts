// bench:e2e --steps: where one event's time goes between its signed delivery and its first CRM
// call. The engine runs in the bench's process, so the probe wraps a few of its services' methods
// (instance properties, nothing in src/ knows about it) and stamps each event as it passes; the
// Postgres timestamps (received_at, runs.created_at, action_results.started_at) fill in the rest.
// Every event of bench:e2e has a contact of its own, so the contact id is the event's key.
import { performance } from 'node:perf_hooks';
import type { INestApplication } from '@nestjs/common';
import { EventsQueue } from '../src/runtime/queues/events-queue.service';
import { EventsProcessor } from '../src/pipeline/events-worker/events.processor';
import type { EventPipeline } from '../src/pipeline/events-worker/event-pipeline.service';
import type { Job, Worker } from 'bullmq';
import { MatchedEventsRecorder } from '../src/pipeline/admission/matched-events-recorder';
import { ActionRunnerService } from '../src/pipeline/execution/action-runner.service';
import { ContactLeasesRepository } from '../src/persistence/ledger/contact-leases.repository';
import { CrmGateway } from '../src/outbound/crm-gateway/crm-gateway.service';
import { percentile } from './stats';
import { printTable } from './bench-support';

/** Epoch ms with sub-millisecond precision (Date.now() rounds to 1 ms, too coarse here). */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/** The stamps of one event, in the order it passes them (epoch ms). */
const STEPS = [
  ['sent', 'the load generator sends the delivery'],
  ['received', 'inbox row inserted (received_at, Postgres)'],
  ['answered', '2xx back at the sender (committed)'],
  ['enqueued', 'events job added (Redis answered)'],
  ['picked', 'events job taken by the worker'],
  ['matching', 'pipeline starts on the read row'],
  ['recording', 'mirror updated, rules matched, runs handed to the ledger'],
  ['created', 'runs.created_at (Postgres: the start of the statement or transaction writing them)'],
  ['recorded', 'runs committed'],
  ['dispatched', 'action runner called (inline) for the contact'],
  ['leased', 'contact lease held'],
  ['running', 'action marked running (started_at, Postgres)'],
  ['http', 'budget granted, HTTP request starts'],
] as const;
export type Step = (typeof STEPS)[number][0];

type Fn = (...args: never[]) => unknown;

export class StepProbe {
  /** By contact id, or by inbox event id for stages that see only the event (merged in report). */
  private readonly stamps = new Map<string, Partial<Record<Step, number>>>();
  private readonly contactOfEvent = new Map<string, string>();

  /** First stamp wins: a retried or second call does not move a step. */
  mark(key: string | null | undefined, step: Step, at = nowMs()): void {
    if (!key) return;
    const s = this.stamps.get(key) ?? {};
    s[step] ??= at;
    this.stamps.set(key, s);
  }

  /** The inbox id the 2xx named, so the stamps of stages keyed by event id join their contact's. */
  noteEvent(inboxEventId: string, contactId: string): void {
    this.contactOfEvent.set(inboxEventId, contactId);
  }

  attach(app: INestApplication): void {
    const byEvent = (id: string) => id;
    wrap(app.get(EventsQueue), 'add', (args, done) =>
      done.then(() => this.mark(byEvent(args[0] as string), 'enqueued')),
    );
    wrap(app.get(EventsQueue), 'addIntakeBatch', (args, done) =>
      done.then(() => {
        for (const id of args[0] as string[]) this.mark(byEvent(id), 'enqueued');
      }),
    );
    // The worker took the job ('active' comes before the processor runs it).
    const processor = app.get(EventsProcessor) as unknown as { worker: Worker; pipeline: EventPipeline };
    processor.worker.on('active', (job: Job<{ inboxEventId?: string; inboxEventIds?: string[] }>) => {
      for (const id of job.data.inboxEventIds ?? [job.data.inboxEventId!]) this.mark(id, 'picked');
    });
    wrap(processor.pipeline, 'process', (args) =>
      this.mark((args[0] as { contact_id: string }).contact_id, 'matching'),
    );
    wrap(app.get(MatchedEventsRecorder), 'record', (args, done) => {
      const contact = byEvent((args[0] as { inboxEventId: string }).inboxEventId);
      this.mark(contact, 'recording');
      void done.then(() => this.mark(contact, 'recorded'));
    });
    wrap(app.get(ActionRunnerService), 'runForContact', (args) => this.mark(args[0] as string, 'dispatched'));
    wrap(app.get(ContactLeasesRepository), 'acquire', (args, done) =>
      done.then(() => this.mark(args[0] as string, 'leased')),
    );
    // The gateway's client, called once the budget granted the slot: the HTTP request starts.
    const client = (app.get(CrmGateway) as unknown as { client: Record<string, Fn> }).client;
    wrap(client, 'addTag', (args) => this.mark(args[0] as string, 'http'));
  }

  /** `db`: the Postgres stamps per contact id. */
  report(db: Map<string, Partial<Record<Step, number>>>): Record<string, number> {
    const intervals = STEPS.slice(1).map(([step, what], i) => ({
      from: STEPS[i][0],
      step,
      what,
      ms: [] as number[],
    }));
    for (const [event, contact] of this.contactOfEvent) {
      const fromDb = db.get(contact);
      if (!fromDb) continue;
      const all: Partial<Record<Step, number>> = {
        ...this.stamps.get(event),
        ...this.stamps.get(contact),
        ...fromDb,
      };
      for (const iv of intervals) {
        const a = all[iv.from];
        const b = all[iv.step];
        if (a !== undefined && b !== undefined) iv.ms.push(b - a);
      }
    }
    // The headline ends at the action's `running` mark (started_at); what the CRM sees is the HTTP
    // request, after the mark's commit and the budget slot: the whole way there, per event.
    const toHttp: number[] = [];
    for (const contact of this.contactOfEvent.values()) {
      const fromDb = db.get(contact);
      const http = this.stamps.get(contact)?.http;
      if (fromDb?.received !== undefined && http !== undefined) toHttp.push(http - fromDb.received);
    }
    console.log(
      `\nreceived → HTTP request starts (the first CRM call as the CRM sees it), ${toHttp.length} events: ` +
        `p50 ${percentile(toHttp, 50)?.toFixed(2)} ms, p99 ${percentile(toHttp, 99)?.toFixed(2)} ms`,
    );
    console.log('\nwhere the time goes, step by step (ms from the previous step; p50 / p99 over events)\n');
    printTable(
      intervals.map((iv) => ({
        step: `${iv.from} → ${iv.step}`,
        what: iv.what,
        events: iv.ms.length,
        'p50 ms': percentile(iv.ms, 50)?.toFixed(2),
        'p99 ms': percentile(iv.ms, 99)?.toFixed(2),
      })),
    );
    return Object.fromEntries([
      ['to_http_p50_ms', round3(percentile(toHttp, 50))],
      ['to_http_p99_ms', round3(percentile(toHttp, 99))],
      ...intervals.flatMap((iv) => [
        [`step_${iv.step}_p50_ms`, round3(percentile(iv.ms, 50))],
        [`step_${iv.step}_p99_ms`, round3(percentile(iv.ms, 99))],
      ]),
    ]);
  }
}

/** Replaces `obj[name]` by a function that tells `seen` of each call (its arguments and its promise). */
function wrap(obj: object, name: string, seen: (args: unknown[], done: Promise<unknown>) => unknown): void {
  const target = obj as Record<string, Fn>;
  const original = target[name];
  if (typeof original !== 'function')
    throw new Error(`probe: ${obj.constructor.name}.${name} is not a function`);
  target[name] = function (this: unknown, ...args: never[]) {
    let resolveDone!: (v: unknown) => void;
    const done = new Promise((r) => (resolveDone = r));
    seen(args, done);
    const out = original.apply(this, args);
    Promise.resolve(out).then(resolveDone, () => undefined);
    return out;
  } as Fn;
}

function round3(x: number | undefined): number {
  return x === undefined || Number.isNaN(x) ? NaN : Math.round(x * 1000) / 1000;
}
