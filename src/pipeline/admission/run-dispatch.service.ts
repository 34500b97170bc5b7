import { Inject, Injectable, Logger } from '@nestjs/common';
import { ActionRunnerService, ContactBusyError } from '../execution/action-runner.service';
import { EngineMetrics } from '../../operator/ops/engine-metrics';
import { ActionsQueue, type RunToQueue } from '../../runtime/queues/actions-queue.service';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { inlineRunLimit } from './inline-run-limit';
import { ACTION_RETRY_DELAY_MS } from '../../runtime/queues/queue-jobs';

export type DispatchOutcome = 'inline' | 'busy' | 'saturated' | 'bulk' | 'error';

/**
 * Where an event's acting runs execute. An interactive run goes straight to the action runner
 * inside the events job when its contact is free: no second queue hop (its add, fetch and finish
 * round trips, and the fetch delay) between the event and its first CRM call. When the contact is
 * held (another job works its earlier runs), too many runs are already inline, or the inline
 * attempt fails, the runs go to the actions queue as before.
 *
 * Never twice: the runner works a contact's runs under its lease and skips finished runs and
 * actions, so an actions job for a run already executed inline (a retry, the reconciler, the
 * fallback after a transient failure) finds nothing left to do: the ledger status is the truth.
 */
@Injectable()
export class RunDispatchService {
  private readonly logger = new Logger(RunDispatchService.name);
  private inline = 0;
  private readonly limit: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly runner: ActionRunnerService,
    private readonly actions: ActionsQueue,
    private readonly metrics: EngineMetrics,
  ) {
    this.limit = inlineRunLimit(config.databasePoolMax);
  }

  /** `runs`: the pending runs of one event (one contact), in created order. */
  async dispatch(runs: readonly RunToQueue[]): Promise<DispatchOutcome | null> {
    if (runs.length === 0) return null;
    const outcome = await this.tryInline(runs);
    this.metrics.runDispatch.inc({ how: outcome });
    // A failed inline attempt is a first attempt: its retry waits the job's first backoff step,
    // not the 12-50 ms an immediate job took (docs/RELIABILITY.md, the attempts schedule).
    if (outcome !== 'inline')
      await this.actions.addMany(runs, outcome === 'error' ? ACTION_RETRY_DELAY_MS : 0);
    return outcome;
  }

  private async tryInline(runs: readonly RunToQueue[]): Promise<DispatchOutcome> {
    // Bulk work (sweeps) keeps its queue; an event's runs are interactive.
    if (runs.some((r) => r.priority !== 'interactive')) return 'bulk';
    if (this.inline >= this.limit) return 'saturated';
    const last = runs[runs.length - 1];
    this.inline++;
    try {
      // Not the final attempt: a transient failure leaves the run to the actions job's retries.
      await this.runner.runForContact(last.contactId, last.id, false, true);
      return 'inline';
    } catch (err) {
      if (err instanceof ContactBusyError) return 'busy';
      this.logger.warn(
        `inline run ${last.id} failed, handed to the actions queue: ${(err as Error).message} [${last.correlationId ?? '-'}]`,
      );
      return 'error';
    } finally {
      this.inline--;
    }
  }
}
