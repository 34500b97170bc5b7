// Pure parts of the ledger's daily partitions: names, bounds, which days to create ahead and which
// partitions retention may drop. No Nest, no SQL (ledger-partitions.repository.ts holds the DDL).

const DAY_MS = 24 * 60 * 60 * 1000;
const NAME = /^([a-z_]+)_p(\d{4})(\d{2})(\d{2})$/;

/** Days created ahead of today: a scheduler outage of this long cannot leave an insert without its day. */
export const PARTITION_DAYS_AHEAD = 3;

export interface PartitionedTable {
  table: string;
  /** Rows that must outlive their day (a predicate on the table): a day holding one is not dropped. */
  keep: string | null;
  /**
   * Tables partitioned by the same day that reference this one (e.g. a run's action results): their
   * day goes first, in the same transaction, and only with this table's.
   */
  dependents?: readonly string[];
  /** A dependent of that table: its days are created ahead here but dropped only with that table's. */
  droppedWith?: string;
  /**
   * Tables its DDL must lock first, in the order writers lock them (a foreign key's other side):
   * ledger-partitions.repository.ts lockInWritersOrder.
   */
  lockFirst?: readonly string[];
}

/**
 * The ledger tables partitioned by day (migrations *-Partition*ByDay): retention creates their days
 * ahead and drops whole days past the horizon before its row deletes (which then find only the
 * legacy and DEFAULT partitions' old rows). docs/RELIABILITY.md, "Retention by partition".
 */
export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { table: 'contact_journal', keep: null },
  // Work (pending) and evidence an operator acts on (failed), as the row pruner keeps them.
  { table: 'inbox_events', keep: `status IN ('pending', 'failed')` },
  // Every run the row pruner keeps: live (pending, running, waiting) and an operator's (dead, uncertain).
  {
    table: 'runs',
    keep: `status NOT IN ('succeeded', 'failed', 'not_matched', 'suppressed', 'cancelled')`,
    dependents: ['action_results'],
    lockFirst: ['runs', 'action_results'],
  },
  { table: 'action_results', keep: null, droppedWith: 'runs', lockFirst: ['runs', 'action_results'] },
];

export interface DailyPartition {
  /** `<table>_pYYYYMMDD`. */
  name: string;
  /** UTC midnight of its day, inclusive. */
  from: Date;
  /** UTC midnight of the next day, exclusive. */
  to: Date;
}

export function utcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export function dailyPartition(table: string, day: Date): DailyPartition {
  const from = utcDay(day);
  const stamp = from.toISOString().slice(0, 10).replace(/-/g, '');
  return { name: `${table}_p${stamp}`, from, to: new Date(from.getTime() + DAY_MS) };
}

/** Today's partition and the `ahead` days after it. */
export function partitionsAhead(table: string, now: Date, ahead = PARTITION_DAYS_AHEAD): DailyPartition[] {
  const today = utcDay(now).getTime();
  return Array.from({ length: ahead + 1 }, (_, i) => dailyPartition(table, new Date(today + i * DAY_MS)));
}

/** The day partition a name stands for, or null for any other child (the DEFAULT, the legacy past). */
export function parsePartitionName(name: string): DailyPartition | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const day = new Date(Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4])));
  const p = dailyPartition(m[1], day);
  // A month 13 or a day 40 rolls over into another date: not a name this module wrote.
  return p.name === name ? p : null;
}

/** The children whose whole day lies before the cutoff, oldest first: retention's candidates. */
export function partitionsBefore(names: readonly string[], cutoff: Date): DailyPartition[] {
  return names
    .map(parsePartitionName)
    .filter((p): p is DailyPartition => p !== null && p.to.getTime() <= cutoff.getTime())
    .sort((a, b) => a.from.getTime() - b.from.getTime());
}

/** A table or partition name safe to splice into DDL (identifiers cannot be bound parameters). */
export function assertIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return name;
}
