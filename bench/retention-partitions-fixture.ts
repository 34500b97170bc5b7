// The two ledgers bench:retention compares, filled with the same rows: the real `runs` and
// `action_results` (pruned by retention's row deletes) and a daily-partitioned copy of them
// (`runs_part`, `action_results_part`: the same columns and indexes, the partition key added to
// each unique key), pruned by dropping a day. Shared by bench/retention-partitions.ts and its
// correctness test (test/persistence/ledger/retention-partitions.e2e-spec.ts).
import type { DataSource } from 'typeorm';
import { RunsRepository } from '../src/persistence/ledger/runs.repository';
import { pruneInBatches } from '../src/persistence/retention/retention';
import { dailyPartition, type PartitionedTable } from '../src/persistence/partitions/ledger-partitions';
import {
  LedgerPartitionMaintenance,
  type PartitionUpkeep,
} from '../src/persistence/partitions/ledger-partition-maintenance';
import { LedgerPartitionsRepository } from '../src/persistence/partitions/ledger-partitions.repository';

/** What retention keeps whatever its age (RunsRepository.deleteFinishedBefore deletes the rest). */
export const RUNS_KEPT = `status NOT IN ('succeeded', 'failed', 'not_matched', 'suppressed', 'cancelled')`;

/** A run's explain trace, about the size the engine stores for a rule of three conditions. */
const TRACE = JSON.stringify({
  all: [1, 2, 3].map((i) => ({
    fact: `contact.customFields.f${i}`,
    operator: 'equal',
    value: `v${i}`,
    result: i < 3,
  })),
});

export async function createPartitionedLedger(ds: DataSource): Promise<void> {
  await ds.query(`CREATE TABLE runs_part (LIKE runs INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS)
                    PARTITION BY RANGE (created_at)`);
  await ds.query(`ALTER TABLE runs_part ADD PRIMARY KEY (id, created_at),
                    ADD UNIQUE (trigger_key, rule_id, contact_id, created_at)`);
  // The real table's other indexes, verbatim on the copy.
  const defs: { def: string }[] = await ds.query(
    `SELECT indexdef AS def FROM pg_indexes WHERE tablename = 'runs' AND indexdef NOT LIKE 'CREATE UNIQUE%'`,
  );
  for (const { def } of defs) {
    await ds.query(def.replace(/INDEX "?(\w+)"? ON public\.runs/, 'INDEX $1_part ON runs_part'));
  }
  await ds.query(`CREATE TABLE action_results_part (LIKE action_results INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
                    run_created_at timestamptz NOT NULL) PARTITION BY RANGE (run_created_at)`);
  await ds.query(`ALTER TABLE action_results_part ADD PRIMARY KEY (id, run_created_at),
                    ADD UNIQUE (run_id, action_index, run_created_at),
                    ADD FOREIGN KEY (run_id, run_created_at) REFERENCES runs_part (id, created_at) ON DELETE CASCADE`);
  await ds.query(`CREATE INDEX action_results_part_status ON action_results_part (status)`);
  // No insert ever fails for want of a day: a row outside every day lands here.
  await ds.query(`CREATE TABLE runs_part_default PARTITION OF runs_part DEFAULT`);
  await ds.query(`CREATE TABLE action_results_part_default PARTITION OF action_results_part DEFAULT`);
}

/** Creates the days' partitions of both copies (retention's scheduler does this ahead of time). */
export async function createDays(ds: DataSource, days: readonly Date[]): Promise<void> {
  const partitions = new LedgerPartitionsRepository(ds);
  await partitions.createDays(
    'runs_part',
    days.map((d) => dailyPartition('runs_part', d)),
  );
  await partitions.createDays(
    'action_results_part',
    days.map((d) => dailyPartition('action_results_part', d)),
  );
}

/** `perDay` finished runs of one action each, spread over the day, in both ledgers. */
export async function fillDay(
  ds: DataSource,
  day: Date,
  perDay: number,
  status = 'succeeded',
): Promise<void> {
  const from = dailyPartition('runs', day).from;
  // One statement: the copy takes exactly the rows just written, whatever the tables held before.
  await ds.query(
    `WITH r AS (
       INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace,
                         actions, priority, created_at, updated_at, finished_at)
       SELECT 'event:' || gen_random_uuid(), 'rule-' || (g % 50), 'v1', 'rs1', 'c' || (g % 5000), $4,
              $3::jsonb, '[{"add-tag":"vip"}]', 'interactive', t, t, t
         FROM generate_series(0, $2 - 1) g,
              LATERAL (SELECT $1::timestamptz + g * (interval '86399 seconds' / $2) AS t) x
       RETURNING *),
     a AS (
       INSERT INTO action_results (run_id, action_index, action, status, attempts, started_at, finished_at)
       SELECT id, 0, actions -> 0, 'succeeded', 1, created_at, created_at FROM r
       RETURNING *),
     rp AS (INSERT INTO runs_part OVERRIDING SYSTEM VALUE SELECT * FROM r)
     INSERT INTO action_results_part SELECT a.*, r.created_at FROM a JOIN r ON r.id = a.run_id`,
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

/** Retention today: finished runs before the cutoff deleted in batches, their results by cascade. */
export function deleteRowsBefore(ds: DataSource, cutoff: Date): Promise<number> {
  const runs = new RunsRepository(ds);
  return pruneInBatches((n) => runs.deleteFinishedBefore(cutoff, n));
}

/** The partitioned copy as retention sees it: a day holding a run to keep stays, results go first. */
export const PARTITIONED_COPY = [
  { table: 'runs_part', keep: RUNS_KEPT, dependents: ['action_results_part'] },
] as const satisfies readonly PartitionedTable[];

/** Retention by partition: every whole day before the cutoff without a row to keep, detached and dropped. */
export async function dropDaysBefore(ds: DataSource, cutoff: Date): Promise<PartitionUpkeep> {
  const [upkeep] = await new LedgerPartitionMaintenance(ds, PARTITIONED_COPY).dropBefore(cutoff);
  return upkeep;
}

/** Rows of a table (or copy) whose time falls in [from, to). */
export async function countBetween(ds: DataSource, table: string, column: string, from: Date, to: Date) {
  const [{ n }]: { n: string }[] = await ds.query(
    `SELECT count(*) AS n FROM ${table} WHERE ${column} >= $1 AND ${column} < $2`,
    [from, to],
  );
  return Number(n);
}
