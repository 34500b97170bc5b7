import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { SegmentRuleStateRepository } from '../segment-rule-state.repository';
import { SWEEPS_QUEUE } from '../../../runtime/queues/queue-jobs';
import { sweepJobId, type SweepJobData, type SweepReason } from './sweep-jobs';

/** Adds sweep jobs: cron ticks, missed ticks caught up on start, manual runs from the admin API. */
@Injectable()
export class SweepQueueService {
  constructor(
    private readonly ruleState: SegmentRuleStateRepository,
    @InjectQueue(SWEEPS_QUEUE) private readonly sweeps: Queue<SweepJobData>,
  ) {}

  /** The job id is rule + tick: replicas adding the same tick add one job. */
  async enqueue(ruleId: string, tick: Date, reason: SweepReason): Promise<string> {
    const jobId = sweepJobId(ruleId, tick);
    await this.sweeps.add('sweep', { ruleId, tickIso: tick.toISOString(), reason }, { jobId });
    if (reason !== 'manual') {
      // Recorded after the add: a tick whose add failed is caught up on the next start.
      await this.ruleState.recordTick(ruleId, tick);
    }
    return jobId;
  }
}
