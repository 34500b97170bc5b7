import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { InboxEventsRepository } from '../../ledger/inbox-events.repository';
import { RunsRepository } from '../../ledger/runs.repository';
import { ConsoleSessionsRepository } from '../../console/auth/console-sessions.repository';
import { pruneConsoleSessions } from './prune-console-sessions';
import { pruneInBatches, retentionCutoff } from './retention';

export interface PruneResult {
  cutoff: string;
  runs: number;
  inboxEvents: number;
  consoleSessions: number;
}

/**
 * Deletes what is older than RETENTION_DAYS and no longer needed: finished runs (with their action
 * results and contact snapshots) first, then the processed inbox events they came from.
 */
@Injectable()
export class RetentionService {
  private readonly logger = new Logger(RetentionService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runs: RunsRepository,
    private readonly inbox: InboxEventsRepository,
    private readonly consoleSessions: ConsoleSessionsRepository,
  ) {}

  async prune(now = new Date()): Promise<PruneResult> {
    const cutoff = retentionCutoff(now, this.config.retentionDays);
    const runs = await pruneInBatches((n) => this.runs.deleteFinishedBefore(cutoff, n));
    const inboxEvents = await pruneInBatches((n) => this.inbox.deleteProcessedBefore(cutoff, n));
    const consoleSessions = await pruneConsoleSessions(this.consoleSessions, this.config.consoleSession);
    this.logger.log(
      `retention (${this.config.retentionDays} days, before ${cutoff.toISOString()}): ` +
        `${runs} run(s) and ${inboxEvents} processed inbox event(s) deleted; ` +
        `${consoleSessions} expired console session(s)`,
    );
    return { cutoff: cutoff.toISOString(), runs, inboxEvents, consoleSessions };
  }
}
