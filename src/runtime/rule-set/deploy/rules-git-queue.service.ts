import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import {
  RULES_GIT_JOB,
  RULES_GIT_QUEUE,
  RULES_GIT_SCHEDULER_ID,
  rulesGitJobId,
  type RulesGitJobData,
} from './rules-git.queue';

/** The one place that adds jobs to the rules-git queue. */
@Injectable()
export class RulesGitQueue {
  constructor(@InjectQueue(RULES_GIT_QUEUE) private readonly queue: Queue<RulesGitJobData>) {}

  /** A fetch now; the same `key` (a push's delivery id) while one is pending adds nothing. */
  async fetchNow(actor: string, key: string): Promise<void> {
    await this.queue.add(RULES_GIT_JOB, { actor }, { jobId: rulesGitJobId(key) });
  }

  /** The interval fallback: every scheduler process upserts the same scheduler, each tick runs once. */
  async schedule(everyMs: number): Promise<void> {
    await this.queue.upsertJobScheduler(
      RULES_GIT_SCHEDULER_ID,
      { every: everyMs },
      { name: RULES_GIT_JOB, data: { actor: 'interval' } },
    );
  }
}
