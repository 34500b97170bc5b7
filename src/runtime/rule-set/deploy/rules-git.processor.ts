import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { GitRulesSync } from './git-rules-sync.service';
import { RULES_GIT_QUEUE, type RulesGitJobData } from './rules-git.queue';

/** One fetch at a time per worker; GitRulesSync's advisory lock makes it one in the fleet. */
@Processor(RULES_GIT_QUEUE, { concurrency: 1 })
export class RulesGitProcessor extends WorkerHost {
  private readonly logger = new Logger(RulesGitProcessor.name);

  constructor(private readonly sync: GitRulesSync) {
    super();
  }

  async process(job: Job<RulesGitJobData>): Promise<unknown> {
    const outcome = await this.sync.sync(job.data.actor);
    // Unreachable git is not a job failure: the outage is recorded and the next tick retries.
    if (outcome.kind !== 'unchanged' && outcome.kind !== 'busy')
      this.logger.log(
        `rules fetch (${job.data.actor}): ${outcome.kind}${'commit' in outcome ? ` ${outcome.commit}` : ''}`,
      );
    return outcome;
  }
}
