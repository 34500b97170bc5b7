import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { DeployedVersions } from './deployed-versions.service';
import { GitRulesSync } from './git-rules-sync.service';
import { RuleSetVersionsRepository } from './rule-set-versions.repository';
import { RULES_GIT_QUEUE } from './rules-git.queue';
import { RulesGitProcessor } from './rules-git.processor';
import { RulesGitQueue } from './rules-git-queue.service';
import { RulesGitSchedule } from './rules-git-schedule.service';

/**
 * Deployed rule-set versions (issue 31). Global so that RuleSetService (RuleSetModule, imported by
 * many modules) finds DeployedVersions without each importer knowing; a test module without it
 * gets a RuleSetService that reads RULES_DIR only. Workers run the fetch job, the scheduler
 * upserts its interval. The live directory (LIVE_DIRECTORY) comes from LiveSnapshotModule, global.
 */
@Module({})
export class DeployModule {
  static register(withWorkers: boolean, withScheduler: boolean): DynamicModule {
    return {
      module: DeployModule,
      global: true,
      imports: [
        BullModule.registerQueue({
          name: RULES_GIT_QUEUE,
          defaultJobOptions: { removeOnComplete: true, removeOnFail: 100 },
        }),
      ],
      providers: [
        RuleSetVersionsRepository,
        GitRulesSync,
        DeployedVersions,
        RulesGitQueue,
        ...(withWorkers ? [RulesGitProcessor] : []),
        ...(withScheduler ? [RulesGitSchedule] : []),
      ],
      exports: [RuleSetVersionsRepository, GitRulesSync, DeployedVersions, RulesGitQueue],
    };
  }
}
