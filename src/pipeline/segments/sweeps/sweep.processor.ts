import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { SWEEPS_QUEUE } from '../../../runtime/queues/queue-jobs';
import type { SweepJobData } from './sweep-jobs';
import { SweepService } from './sweep.service';

/** Two sweeps at a time: they share one CRM budget, so more would only queue on it. */
@Processor(SWEEPS_QUEUE, { concurrency: 2 })
export class SweepProcessor extends WorkerHost {
  constructor(private readonly sweeps: SweepService) {
    super();
  }

  async process(job: Job<SweepJobData>) {
    return this.sweeps.run(job.data);
  }
}
