import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ACTIONS_QUEUE,
  ActionJobData,
  actionJobId,
  actionJobOptions,
  EVENTS_QUEUE,
  EventJobData,
  eventJobId,
} from '../queues/queues';

/** Work older than this with no progress is re-enqueued; younger work is probably in flight. */
const STALE_AFTER_MS = 5_000;
const BATCH = 500;

/**
 * Postgres is the truth; Redis only carries work. After a Redis flush or a crashed worker, this
 * re-adds a job for every unfinished event and run. Job ids are ledger ids, so a job that still
 * exists is not duplicated, and processors are idempotent against the ledger for the rest.
 */
@Injectable()
export class ReconcilerService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ReconcilerService.name);
  private running = false;

  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue<EventJobData>,
    @InjectQueue(ACTIONS_QUEUE) private readonly actions: Queue<ActionJobData>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reconcile(0).catch((err) => this.logger.warn(`startup reconcile failed: ${err.message}`));
  }

  @Interval(10_000)
  async tick(): Promise<void> {
    await this.reconcile(STALE_AFTER_MS).catch((err) => this.logger.warn(`reconcile failed: ${err.message}`));
  }

  async reconcile(staleAfterMs = STALE_AFTER_MS): Promise<{ events: number; runs: number }> {
    if (this.running) return { events: 0, runs: 0 };
    this.running = true;
    try {
      const events: { id: string }[] = await this.dataSource.query(
        `SELECT id FROM inbox_events WHERE status = 'pending' AND received_at < now() - ($1::int * interval '1 millisecond')
          ORDER BY received_at LIMIT ${BATCH}`,
        [staleAfterMs],
      );
      for (const e of events) {
        if (await this.isQueued(this.events, eventJobId(e.id))) continue;
        await this.events.add(
          'event',
          { inboxEventId: e.id, correlationId: randomUUID() },
          { jobId: eventJobId(e.id) },
        );
      }
      const runs: { id: string; contact_id: string; correlation_id: string | null; bulk: boolean }[] =
        await this.dataSource.query(
          `SELECT id, contact_id, correlation_id, trigger_key LIKE 'sweep%' AS bulk FROM runs
          WHERE status IN ('pending', 'running') AND updated_at < now() - ($1::int * interval '1 millisecond')
          ORDER BY created_at LIMIT ${BATCH}`,
          [staleAfterMs],
        );
      for (const r of runs) {
        if (await this.isQueued(this.actions, actionJobId(r.id))) continue;
        await this.actions.add(
          'run',
          {
            runId: r.id,
            contactId: r.contact_id,
            correlationId: r.correlation_id ?? undefined,
            priority: r.bulk ? 'bulk' : 'interactive',
          },
          actionJobOptions(r.id),
        );
      }
      const counts = { events: events.length, runs: runs.length };
      if (counts.events || counts.runs)
        this.logger.log(`reconciled ${counts.events} event(s) and ${counts.runs} run(s)`);
      return counts;
    } finally {
      this.running = false;
    }
  }

  /** A job that exists and is not finished is left alone; a finished or failed one is replaced. */
  private async isQueued(queue: Queue, jobId: string): Promise<boolean> {
    const job = await queue.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') {
      await job.remove().catch(() => undefined);
      return false;
    }
    return true;
  }
}
