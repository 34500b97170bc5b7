import { Inject, Injectable, Logger } from '@nestjs/common';
import { Counter } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { EventRecords } from '../admission/event-records.service';
import { EngineMetrics } from '../../operator/ops/engine-metrics';
import { afterFailedAttempt, describeEventFailure } from './event-failure';

/**
 * The bounded life of a stored event: each failed attempt is counted with its error; after
 * EVENT_MAX_ATTEMPTS, or at once for an error that would come back every time, the event ends
 * `failed` (warned once, counted, listed by GET /admin/events?status=failed, replayable). The
 * reconciler only re-adds pending events, so a failed one costs nothing more.
 */
@Injectable()
export class EventFailuresService {
  private readonly logger = new Logger(EventFailuresService.name);
  private readonly failed: Counter<'reason'>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ledger: EventRecords,
    metrics: EngineMetrics,
  ) {
    this.failed = new Counter({
      name: 'crmr_events_failed_total',
      help: 'Stored events that ended failed, by reason (permanent error or attempts exhausted)',
      labelNames: ['reason'],
      registers: [metrics.registry],
    });
  }

  /** Resolves when the event is done with (failed for good, or no longer pending); throws to retry. */
  async onFailedAttempt(inboxEventId: string, err: unknown): Promise<void> {
    const failure = describeEventFailure(err);
    const attempts = await this.ledger.recordFailedAttempt(inboxEventId, failure.message);
    if (attempts === undefined) return;
    if (afterFailedAttempt(attempts, this.config.eventMaxAttempts, failure.permanent) === 'retry') throw err;
    if (await this.ledger.markFailed(inboxEventId)) {
      const reason = failure.permanent ? 'permanent' : 'attempts_exhausted';
      this.failed.inc({ reason });
      this.logger.warn(
        `event ${inboxEventId} failed after ${attempts} attempt(s) (${reason}): ${failure.message}; ` +
          `replay with POST /admin/events/${inboxEventId}/replay`,
      );
    }
  }
}
