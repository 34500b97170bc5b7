import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { GROWING_TABLES, pruneInBatches, retentionCutoffs, type PrunedTableName } from './retention';
import { discoverPruners, type TablePruner } from './table-pruner';
import {
  LedgerPartitionMaintenance,
  PartitionsBusyError,
  type PartitionUpkeep,
} from '../partitions/ledger-partition-maintenance';

export interface PruneResult {
  /** RETENTION_DAYS ago: the ledger's horizon. */
  cutoff: string;
  /** RETENTION_AUDIT_DAYS ago: the audit's horizon. */
  auditCutoff: string;
  /** Rows deleted per table (cascaded tables are not counted). */
  deleted: Record<PrunedTableName, number>;
  /** Per partitioned table: the days dropped whole, the days past the horizon kept and why. */
  partitions: PartitionUpkeep[];
}

/**
 * Deletes, table by table (GROWING_TABLES) and in batches, what is past its horizon and no longer
 * needed: finished runs (with their action results and contact snapshots) first, then the
 * processed inbox events they came from, then the journal, sweeps, tombstones and audit rows.
 * Partitioned tables (PARTITIONED_TABLES) first get their days ahead and lose their whole days past
 * the horizon; the row deletes then take only what the legacy and DEFAULT partitions hold.
 * Each table's statement comes from its owner (a @PrunesTable provider, table-pruner.ts).
 */
@Injectable()
export class RetentionService implements OnModuleInit {
  private readonly logger = new Logger(RetentionService.name);
  private pruners!: Record<PrunedTableName, TablePruner>;
  private readonly partitions: LedgerPartitionMaintenance;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    db: DataSource,
    private readonly discovery: DiscoveryService,
  ) {
    this.partitions = new LedgerPartitionMaintenance(db);
  }

  /** Every provider is built by now: a pruned table without its owner's pruner stops the start. */
  onModuleInit(): void {
    this.pruners = discoverPruners(this.discovery);
  }

  /** The days ahead of every partitioned table (a scheduler's start, each tick). */
  createPartitionsAhead(now = new Date()): Promise<string[]> {
    return this.partitions.createAhead(now);
  }

  async prune(now = new Date()): Promise<PruneResult> {
    const days = { ledger: this.config.retentionDays, audit: this.config.retentionAuditDays };
    const cutoffs = retentionCutoffs(now, days, this.config.consoleSession.idleMs);
    // Days ahead that gave way to writers are made by the next tick (3 days ahead): the prune goes on.
    const blocked = await this.partitions.createAhead(now).catch((err: unknown) => {
      if (!(err instanceof PartitionsBusyError)) throw err;
      this.logger.warn(err.message);
      return [];
    });
    for (const day of blocked)
      this.logger.warn(`${day} not created: the DEFAULT partition holds rows of that day (pruned by rows)`);
    const partitions = await this.partitions.dropBefore(cutoffs.ledger);
    const deleted = {} as Record<PrunedTableName, number>;
    for (const t of GROWING_TABLES) {
      if ('prunedWith' in t) continue;
      deleted[t.table] = await pruneInBatches((n) => this.pruners[t.table].prune(cutoffs[t.horizon], n));
    }
    this.logger.log(
      `retention (${days.ledger} days, audit ${days.audit} days): deleted ` +
        Object.entries(deleted)
          .map(([table, n]) => `${table} ${n}`)
          .join(', ') +
        partitions
          .map((p) => `; ${p.table} days dropped ${p.dropped.length}, kept ${p.kept.length}`)
          .join(''),
    );
    for (const p of partitions) {
      for (const k of p.kept)
        this.logger.warn(`${k.name} is past the horizon but kept: ${k.rows} rows in it must live on`);
      for (const day of p.busy)
        this.logger.warn(`${day} is past the horizon but not dropped: writers held the table (next tick)`);
    }
    return {
      cutoff: cutoffs.ledger.toISOString(),
      auditCutoff: cutoffs.audit.toISOString(),
      deleted,
      partitions,
    };
  }
}
