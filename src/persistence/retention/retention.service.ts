import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { GROWING_TABLES, pruneInBatches, retentionCutoffs, type PrunedTableName } from './retention';
import { retentionPruners, type Pruner } from './retention-pruners';

export interface PruneResult {
  /** RETENTION_DAYS ago: the ledger's horizon. */
  cutoff: string;
  /** RETENTION_AUDIT_DAYS ago: the audit's horizon. */
  auditCutoff: string;
  /** Rows deleted per table (cascaded tables are not counted). */
  deleted: Record<PrunedTableName, number>;
}

/**
 * Deletes, table by table (GROWING_TABLES) and in batches, what is past its horizon and no longer
 * needed: finished runs (with their action results and contact snapshots) first, then the
 * processed inbox events they came from, then the journal, sweeps, tombstones and audit rows.
 */
@Injectable()
export class RetentionService {
  private readonly logger = new Logger(RetentionService.name);
  private readonly pruners: Record<PrunedTableName, Pruner>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    db: DataSource,
  ) {
    this.pruners = retentionPruners(db, config.consoleSession);
  }

  async prune(now = new Date()): Promise<PruneResult> {
    const days = { ledger: this.config.retentionDays, audit: this.config.retentionAuditDays };
    const cutoffs = retentionCutoffs(now, days, this.config.consoleSession.idleMs);
    const deleted = {} as Record<PrunedTableName, number>;
    for (const t of GROWING_TABLES) {
      if ('prunedWith' in t) continue;
      deleted[t.table] = await pruneInBatches((n) => this.pruners[t.table](cutoffs[t.horizon], n));
    }
    this.logger.log(
      `retention (${days.ledger} days, audit ${days.audit} days): deleted ` +
        Object.entries(deleted)
          .map(([table, n]) => `${table} ${n}`)
          .join(', '),
    );
    return { cutoff: cutoffs.ledger.toISOString(), auditCutoff: cutoffs.audit.toISOString(), deleted };
  }
}
