import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { ACTION_JOB_ATTEMPTS, ACTIONS_QUEUE, ActionJobData } from '../queues/queues';
import { FAST_RECOVERY } from '../queues/worker-options';
import { ActionRunnerService, ContactBusyError } from './action-runner.service';

/** How long a job waits when another worker holds its contact (it will have run this job's run too). */
const BUSY_DELAY_MS = 50;

@Processor(ACTIONS_QUEUE, { concurrency: 16, ...FAST_RECOVERY })
export class ActionsProcessor extends WorkerHost {
  private readonly logger = new Logger(ActionsProcessor.name);

  constructor(private readonly runner: ActionRunnerService) {
    super();
  }

  async process(job: Job<ActionJobData>, token?: string): Promise<void> {
    const attempts = job.opts.attempts ?? ACTION_JOB_ATTEMPTS;
    try {
      await this.runner.runForContact(job.data.contactId, job.data.runId, job.attemptsMade + 1 >= attempts);
    } catch (err) {
      if (err instanceof ContactBusyError) {
        // Waiting for the contact is not a failed attempt: move back to delayed without using one.
        await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
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
