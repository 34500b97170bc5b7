import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { BULK_RUNS_QUEUE } from '../../runtime/queues/queue-jobs';

export interface BulkRunJobData {
  bulkRunId: string;
}

/** The one place that adds bulk-run jobs. The job id is the bulk run's: adding it twice adds one job. */
@Injectable()
export class BulkRunsQueue {
  constructor(@InjectQueue(BULK_RUNS_QUEUE) private readonly queue: Queue<BulkRunJobData>) {}

  async add(bulkRunId: string): Promise<void> {
    await this.queue.add('bulk-run', { bulkRunId }, { jobId: `bulk-${bulkRunId}` });
  }
}
