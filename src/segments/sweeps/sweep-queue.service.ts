import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { SWEEPS_QUEUE } from '../../queues/queues';
import { sweepJobId, type SweepJobData, type SweepReason } from './sweep-jobs';

/** Adds sweep jobs: cron ticks, missed ticks caught up on start, manual runs from the admin API. */
@Injectable()
export class SweepQueueService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(SWEEPS_QUEUE) private readonly sweeps: Queue<SweepJobData>,
  ) {}

  /** The job id is rule + tick: replicas adding the same tick add one job. */
  async enqueue(ruleId: string, tick: Date, reason: SweepReason): Promise<string> {
    const jobId = sweepJobId(ruleId, tick);
    await this.sweeps.add('sweep', { ruleId, tickIso: tick.toISOString(), reason }, { jobId });
    if (reason !== 'manual') {
      // Recorded after the add: a tick whose add failed is caught up on the next start.
      await this.dataSource.query(
        `UPDATE segment_rule_state SET last_tick_at = GREATEST(last_tick_at, $2), updated_at = now() WHERE rule_id = $1`,
        [ruleId, tick],
      );
    }
    return jobId;
  }
}
