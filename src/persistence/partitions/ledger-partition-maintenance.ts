// The daily partitions' upkeep, run by the retention job: days created ahead, whole days past the
// horizon dropped (unless one holds a row that must live on), and the state an operator reads.
import type { DataSource } from 'typeorm';
import {
  dailyPartition,
  PARTITION_DAYS_AHEAD,
  PARTITIONED_TABLES,
  partitionsAhead,
  partitionsBefore,
  type PartitionedTable,
} from './ledger-partitions';
import { isLockBusy, LedgerPartitionsRepository } from './ledger-partitions.repository';

export interface PartitionUpkeep {
  table: string;
  /** Days dropped whole. */
  dropped: string[];
  /** Days past the horizon kept: they hold rows that must live on (their finished rows go by rows). */
  kept: { name: string; rows: number }[];
  /** Days not dropped this time because writers held the tables (LOCK_TIMEOUT): the next tick drops them. */
  busy: string[];
}

/** Days ahead not created because writers held their tables past the DDL's lock timeout. */
export class PartitionsBusyError extends Error {
  constructor(readonly tables: string[]) {
    super(`days ahead of ${tables.join(', ')} not created: writers held the tables (tried again later)`);
  }
}

export interface PartitionsView {
  table: string;
  days: number;
  firstDay: string | null;
  lastDay: string | null;
  /** Rows outside every day: 0 unless the days ahead were not created in time. */
  defaultRows: number;
  /** Children that are not days (the legacy past attached by the migration, the DEFAULT). */
  others: string[];
  bytes: number;
}

export class LedgerPartitionMaintenance {
  private readonly partitions: LedgerPartitionsRepository;

  constructor(
    db: DataSource,
    private readonly tables: readonly PartitionedTable[] = PARTITIONED_TABLES,
  ) {
    this.partitions = new LedgerPartitionsRepository(db);
  }

  /**
   * Today and `ahead` days after it, for every partitioned table (at start and on each retention
   * tick; a benchmark asks for a month, bench/bench-support.ts).
   * Returns the days the DEFAULT partition's rows kept from being created (health detail shows
   * those rows as `defaultRows`). Throws PartitionsBusyError, after trying every table, when some
   * days gave way to writers.
   */
  async createAhead(now: Date, ahead = PARTITION_DAYS_AHEAD): Promise<string[]> {
    const blocked: string[] = [];
    const busy: string[] = [];
    for (const t of this.tables) {
      // Days the legacy past (the migration's partition up to the day after it ran) already covers.
      const legacyEnd = Math.max(
        0,
        ...(await this.partitions.children(t.table))
          .filter((c) => c.from === null && c.upTo)
          .map((c) => c.upTo!.getTime()),
      );
      const days = partitionsAhead(t.table, now, ahead).filter((d) => d.from.getTime() >= legacyEnd);
      try {
        blocked.push(...(await this.partitions.createDays(t.table, days, t.lockFirst)));
      } catch (err) {
        if (!isLockBusy(err)) throw err;
        busy.push(t.table);
      }
    }
    if (busy.length > 0) throw new PartitionsBusyError(busy);
    return blocked;
  }

  async dropBefore(cutoff: Date): Promise<PartitionUpkeep[]> {
    const upkeep: PartitionUpkeep[] = [];
    for (const t of this.tables.filter((table) => !table.droppedWith)) {
      const done: PartitionUpkeep = { table: t.table, dropped: [], kept: [], busy: [] };
      const children = (await this.partitions.children(t.table)).map((c) => c.name);
      for (const day of partitionsBefore(children, cutoff)) {
        const rows = t.keep ? await this.partitions.countKept(day.name, t.keep) : 0;
        if (rows > 0) {
          done.kept.push({ name: day.name, rows });
          continue;
        }
        const children = [
          ...(t.dependents ?? []).map((dep) => ({ parent: dep, name: dailyPartition(dep, day.from).name })),
          { parent: t.table, name: day.name },
        ];
        try {
          await this.partitions.dropChildren(children, t.lockFirst);
          done.dropped.push(...children.map((c) => c.name));
        } catch (err) {
          if (!isLockBusy(err)) throw err;
          done.busy.push(day.name);
        }
      }
      upkeep.push(done);
    }
    return upkeep;
  }

  async view(): Promise<PartitionsView[]> {
    const views: PartitionsView[] = [];
    for (const t of this.tables) {
      const children = await this.partitions.children(t.table);
      const days = children.filter((c) => c.from !== null);
      const others = children.filter((c) => c.from === null).map((c) => c.name);
      const defaultName = others.find((n) => n.endsWith('_default'));
      views.push({
        table: t.table,
        days: days.length,
        firstDay: days[0]?.from?.toISOString().slice(0, 10) ?? null,
        lastDay: days.at(-1)?.from?.toISOString().slice(0, 10) ?? null,
        defaultRows: defaultName ? await this.partitions.countKept(defaultName, 'true') : 0,
        others,
        bytes: children.reduce((sum, c) => sum + c.bytes, 0),
      });
    }
    return views;
  }
}
