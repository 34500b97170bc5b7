// Shared helpers of the benchmarks: a fresh database, Redis clean-up and a table printer.
import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { loadConfig } from '../src/runtime/config/load-config';
import { DataSource } from 'typeorm';
import { dropDatabase, ensureDatabase, runMigrations } from '../src/persistence/schema/migrate';
import { dataSourceOptions } from '../src/persistence/schema/data-source';
import { LedgerPartitionMaintenance } from '../src/persistence/partitions/ledger-partition-maintenance';
import { PARTITION_DAYS_AHEAD } from '../src/persistence/partitions/ledger-partitions';

export async function benchDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const u = new URL(loadConfig().databaseUrl);
  u.pathname = `/crmr_bench_${name}_${randomUUID().slice(0, 6)}`;
  const url = u.toString();
  await ensureDatabase(url);
  await runMigrations(url);
  await addLedgerDays(url, LEDGER_DAYS);
  return { url, drop: () => dropDatabase(url) };
}

/**
 * Days of partitions per ledger table (BENCH_LEDGER_DAYS, default 0: a fresh database's today and
 * 3 days ahead). A database in use keeps RETENTION_DAYS (30) past days besides: `34` gives the
 * benchmark as many children per table, so statements that the planner cannot prune to one day pay
 * what they pay in production (docs/BENCHMARKS.md, "Round 4, session 8"). The extra days are made
 * ahead, where the engine writes nothing: for the planner a child is a child.
 */
export const LEDGER_DAYS = Number(process.env.BENCH_LEDGER_DAYS ?? 0);

async function addLedgerDays(url: string, days: number): Promise<void> {
  if (days <= PARTITION_DAYS_AHEAD + 1) return;
  const db = await new DataSource(dataSourceOptions(url, {}, 2)).initialize();
  try {
    await new LedgerPartitionMaintenance(db).createAhead(new Date(), days - 1);
  } finally {
    await db.destroy();
  }
}

/** Deletes the keys a benchmark's engine wrote under its own Redis prefix. */
export async function dropRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: null });
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

export function printTable(rows: Record<string, string | number>[]): void {
  if (!rows.length) return;
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  console.log(line(keys));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(keys.map((k) => String(r[k]))));
}

/**
 * The webhook-secret sealing key of the benchmarks' engines: an engine with CRM_BASE_URL requires
 * one (src/runtime/config/start-checks.ts), and every process of one run must share it.
 */
export const BENCH_SEALING_KEY = 'be0c4e5a1ed0be0c4e5a1ed0be0c4e5a1ed0be0c4e5a1ed0be0c4e5a1ed0be0c';
