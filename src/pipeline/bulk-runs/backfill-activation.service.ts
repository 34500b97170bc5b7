import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { BulkRunsService } from './bulk-runs.service';

/**
 * In scheduler processes: each rule set loaded (start, reload, a deployed version activated) gets
 * its backfills prepared (one per rule version, whichever process claims it first), and confirmed
 * bulk runs whose job was lost are queued again at start.
 */
@Injectable()
export class BackfillActivationService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BackfillActivationService.name);
  private unsubscribe?: () => void;

  constructor(
    private readonly rules: RuleSetService,
    private readonly bulkRuns: BulkRunsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.unsubscribe = this.rules.onChange((set) => void this.prepare(set));
    const set = this.rules.current();
    if (set) void this.prepare(set);
    await this.bulkRuns
      .resumeRunning()
      .catch((err: Error) => this.logger.error(`bulk runs not resumed: ${err.message}`));
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  private async prepare(set: Parameters<BulkRunsService['prepareBackfills']>[0]): Promise<void> {
    await this.bulkRuns
      .prepareBackfills(set)
      .catch((err: Error) =>
        this.logger.error(`backfills of rule set ${set.version} not prepared: ${err.message}`),
      );
  }
}
