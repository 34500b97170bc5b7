// The ledger bench:retention prunes both ways: the live `runs` and `action_results`, partitioned
// by day of the trigger's time (migration 1795990000000), filled with finished runs of one action
// each. A day's rows go either by retention's row deletes or by dropping the day's partitions.
// Shared by bench/retention-partitions.ts and its correctness test
// (test/persistence/ledger/retention-partitions.e2e-spec.ts).
import type { DataSource } from 'typeorm';
import { RunsRepository } from '../src/persistence/ledger/runs.repository';
import { pruneInBatches } from '../src/persistence/retention/retention';
import {
  dailyPartition,
  PARTITIONED_TABLES,
  type PartitionedTable,
} from '../src/persistence/partitions/ledger-partitions';
import {
  LedgerPartitionMaintenance,
  type PartitionUpkeep,
} from '../src/persistence/partitions/ledger-partition-maintenance';
import { LedgerPartitionsRepository } from '../src/persistence/partitions/ledger-partitions.repository';

/** A run's explain trace, about the size the engine stores for a rule of three conditions. */
const TRACE = JSON.stringify({
  all: [1, 2, 3].map((i) => ({
    fact: `contact.customFields.f${i}`,
    operator: 'equal',
    value: `v${i}`,
    result: i < 3,
  })),
});

/** The runs' entry of retention's list (its dependents, action_results, go with it). */
const RUNS_TABLES: readonly PartitionedTable[] = PARTITIONED_TABLES.filter((t) =>
  ['runs', 'action_results'].includes(t.table),
);

/**
 * Creates the days' partitions of runs and their results (retention does this ahead of time).
 * The days must lie after the migration's legacy range (its day and those before are the past).
 */
export async function createDays(ds: DataSource, days: readonly Date[]): Promise<void> {
  const partitions = new LedgerPartitionsRepository(ds);
  for (const table of ['runs', 'action_results'])
    await partitions.createDays(
      table,
      days.map((d) => dailyPartition(table, d)),
    );
}

/** `perDay` finished runs of one action each, their triggers spread over the day. */
export async function fillDay(
  ds: DataSource,
  day: Date,
  perDay: number,
  status = 'succeeded',
): Promise<void> {
  const from = dailyPartition('runs', day).from;
  await ds.query(
    `WITH r AS (
       INSERT INTO runs (trigger_key, trigger_at, rule_id, rule_version, rule_set_version, contact_id, status,
                         trace, actions, priority, created_at, updated_at, finished_at)
       SELECT 'event:' || gen_random_uuid(), t, 'rule-' || (g % 50), 'v1', 'rs1', 'c' || (g % 5000), $4,
              $3::jsonb, '[{"add-tag":"vip"}]', 'interactive', t, t, t
         FROM generate_series(0, $2 - 1) g,
              LATERAL (SELECT $1::timestamptz + g * (interval '86399 seconds' / $2) AS t) x
       RETURNING *)
     INSERT INTO action_results (run_id, run_trigger_at, action_index, action, status, attempts, started_at,
                                 finished_at)
     SELECT id, trigger_at, 0, actions -> 0, 'succeeded', 1, created_at, created_at FROM r`,
    [from, perDay, TRACE, status],
  );
}

export interface Measured<T> {
  ms: number;
  walBytes: number;
  result: T;
}

/** Wall time and the WAL Postgres wrote meanwhile (cluster-wide: other databases' writes count too). */
export async function measure<T>(ds: DataSource, work: () => Promise<T>): Promise<Measured<T>> {
  const [{ lsn: before }]: { lsn: string }[] = await ds.query(`SELECT pg_current_wal_lsn() AS lsn`);
  const t0 = process.hrtime.bigint();
  const result = await work();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const [{ bytes }]: { bytes: string }[] = await ds.query(
    `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::bigint AS bytes`,
    [before],
  );
  return { ms, walBytes: Number(bytes), result };
}

/** Retention by rows: finished runs before the cutoff deleted in batches, their results by cascade. */
export function deleteRowsBefore(ds: DataSource, cutoff: Date): Promise<number> {
  const runs = new RunsRepository(ds);
  return pruneInBatches((n) => runs.deleteFinishedBefore(cutoff, n));
}

/** Retention by partition: every whole day before the cutoff without a run to keep, detached and dropped. */
export async function dropDaysBefore(ds: DataSource, cutoff: Date): Promise<PartitionUpkeep> {
  const [upkeep] = await new LedgerPartitionMaintenance(ds, RUNS_TABLES).dropBefore(cutoff);
  return upkeep;
}

/** Rows of a table whose time falls in [from, to). */
export async function countBetween(ds: DataSource, table: string, column: string, from: Date, to: Date) {
  const [{ n }]: { n: string }[] = await ds.query(
    `SELECT count(*) AS n FROM ${table} WHERE ${column} >= $1 AND ${column} < $2`,
    [from, to],
  );
  return Number(n);
}
