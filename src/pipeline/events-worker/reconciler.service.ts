import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ENGINE_CLOCK, type EngineClock } from '../../runtime/config/engine-clock';
import { Interval } from '@nestjs/schedule';
import { EventRecords } from '../admission/event-records.service';
import { ActionsQueue } from '../../runtime/queues/actions-queue.service';
import { EventsQueue } from '../../runtime/queues/events-queue.service';

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
    private readonly ledger: EventRecords,
    private readonly events: EventsQueue,
    private readonly actions: ActionsQueue,
    // Whether a waiting run is overdue is a question of engine time (its waiting_until).
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
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
      const events = await this.ledger.stalePendingEvents(staleAfterMs, BATCH);
      await this.events.ensureMany(events);
      const runs = await this.ledger.staleRuns(staleAfterMs, BATCH, this.clock.now());
      for (const run of runs) await this.actions.ensure(run);
      const counts = { events: events.length, runs: runs.length };
      if (counts.events || counts.runs)
        this.logger.log(`reconciled ${counts.events} event(s) and ${counts.runs} run(s)`);
      return counts;
    } finally {
      this.running = false;
    }
  }
}
