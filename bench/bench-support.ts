// Shared helpers of the benchmarks: a fresh database, Redis clean-up and a table printer.
import { randomUUID } from 'node:crypto';
import IORedis from 'ioredis';
import { loadConfig } from '../src/runtime/config/load-config';
import { dropDatabase, ensureDatabase, runMigrations } from '../src/persistence/schema/migrate';

export async function benchDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const u = new URL(loadConfig().databaseUrl);
  u.pathname = `/crmr_bench_${name}_${randomUUID().slice(0, 6)}`;
  const url = u.toString();
  await ensureDatabase(url);
  await runMigrations(url);
  return { url, drop: () => dropDatabase(url) };
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
