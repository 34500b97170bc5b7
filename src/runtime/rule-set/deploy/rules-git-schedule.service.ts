import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { RulesGitQueue } from './rules-git-queue.service';

/** The scheduler role's part: the interval fetch, when the rules follow git. */
@Injectable()
export class RulesGitSchedule implements OnApplicationBootstrap {
  private readonly logger = new Logger(RulesGitSchedule.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: RulesGitQueue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const git = this.config.rulesGit;
    if (!git) return;
    await this.queue
      .schedule(git.intervalMs)
      .catch((err: Error) => this.logger.warn(`rules fetch not scheduled (Redis): ${err.message}`));
  }
}
