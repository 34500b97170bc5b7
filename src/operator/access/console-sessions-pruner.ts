// Console sessions already refused: idle longer than their timeout or older than their lifetime,
// whichever comes first (the limits, not the cutoff retention passes). Found by RetentionService
// through @PrunesTable (access owns the table, retention only asks).
import { Inject, Injectable } from '@nestjs/common';
import { PrunesTable, type TablePruner } from '../../persistence/retention/table-pruner';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { ConsoleSessionsRepository } from './console-sessions.repository';

@Injectable()
@PrunesTable('console_sessions')
export class ConsoleSessionsPruner implements TablePruner {
  constructor(
    private readonly sessions: ConsoleSessionsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  prune(_cutoff: Date, limit: number): Promise<number> {
    return this.sessions.deleteExpired(this.config.consoleSession, limit);
  }
}
