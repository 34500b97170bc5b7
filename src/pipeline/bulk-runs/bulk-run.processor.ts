import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { BULK_RUNS_QUEUE } from '../../runtime/queues/queue-jobs';
import type { BulkRunJobData } from './bulk-runs-queue.service';
import { BulkRunExecutor } from './bulk-run-executor.service';

/** One bulk run at a time: its runs share the CRM budget with everything else at bulk priority. */
@Processor(BULK_RUNS_QUEUE, { concurrency: 1 })
export class BulkRunProcessor extends WorkerHost {
  constructor(private readonly executor: BulkRunExecutor) {
    super();
  }

  async process(job: Job<BulkRunJobData>) {
    return this.executor.execute(job.data.bulkRunId);
  }
}
