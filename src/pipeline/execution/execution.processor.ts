import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { ACTION_JOB_ATTEMPTS, ACTIONS_QUEUE, ActionJobData } from '../../runtime/queues/queue-jobs';
import { FAST_RECOVERY } from '../../runtime/queues/worker-options';
import { ActionRunnerService, ContactBusyError } from './action-runner.service';
import { busyBackoffMs } from './busy-backoff';

@Processor(ACTIONS_QUEUE, { concurrency: 16, ...FAST_RECOVERY })
export class ExecutionProcessor extends WorkerHost {
  private readonly logger = new Logger(ExecutionProcessor.name);

  constructor(private readonly runner: ActionRunnerService) {
    super();
  }

  async process(job: Job<ActionJobData>, token?: string): Promise<void> {
    const attempts = job.opts.attempts ?? ACTION_JOB_ATTEMPTS;
    try {
      await this.runner.runForContact(job.data.contactId, job.data.runId, job.attemptsMade + 1 >= attempts);
    } catch (err) {
      if (err instanceof ContactBusyError) {
        // Waiting for the contact is not a failed attempt: move back to delayed without using one,
        // a little longer each time (busy-backoff.ts).
        const waits = job.data.busyWaits ?? 0;
        await job.updateData({ ...job.data, busyWaits: waits + 1 });
        await job.moveToDelayed(Date.now() + busyBackoffMs(waits), token);
        throw new DelayedError();
      }
      throw err;
    }
  }

  // A worker without an 'error' listener crashes on Redis hiccups (e.g. a flushed job key);
  // the ledger in Postgres and the reconciler recover the work, so logging is enough.
  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.warn(`worker error: ${err.message}`);
  }
}
