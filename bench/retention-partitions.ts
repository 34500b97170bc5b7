// npm run bench:retention — retention by partition against retention by row deletes on the live
// `runs` and `action_results` (partitioned by day: bench/retention-partitions-fixture.ts). Each
// round fills DAYS days of finished runs (one action result each, a trace of the usual size),
// deletes the oldest day's rows as retention's row pruner does, fills that day again with as many
// rows, then drops it as retention now does, measuring wall time and the WAL Postgres wrote
// (pg_current_wal_lsn before and after). WAL is cluster-wide: other
// databases' writes on a shared machine count in it, so the minimum over the rounds is the figure.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/persistence/schema/data-source';
import { dailyPartition } from '../src/persistence/partitions/ledger-partitions';
import { benchDatabase, printTable } from './bench-support';
import {
  countBetween,
  createDays,
  deleteRowsBefore,
  dropDaysBefore,
  fillDay,
  measure,
} from './retention-partitions-fixture';

const PER_DAY = Number(process.env.BENCH_RUNS_PER_DAY ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

interface RoundFigures {
  deleteMs: number;
  deleteWal: number;
  dropMs: number;
  dropWal: number;
}

async function round(url: string, first: Date): Promise<RoundFigures> {
  const ds = new DataSource(dataSourceOptions(url, { extra: { max: 2 } }));
  await ds.initialize();
  try {
    await ds.query(`TRUNCATE runs CASCADE`);
    const days = Array.from({ length: DAYS }, (_, i) => new Date(first.getTime() + i * DAY_MS));
    await createDays(ds, days);
    for (const day of days) await fillDay(ds, day, PER_DAY);
    await ds.query(`VACUUM ANALYZE runs, action_results`);
    await ds.query(`CHECKPOINT`);
    const cutoff = days[1];
    const del = await measure(ds, () => deleteRowsBefore(ds, cutoff));
    // The same day again, as many rows, then taken away by dropping it.
    await fillDay(ds, days[0], PER_DAY);
    await ds.query(`VACUUM ANALYZE runs, action_results`);
    await ds.query(`CHECKPOINT`);
    const drop = await measure(ds, () => dropDaysBefore(ds, cutoff));
    const oldest = dailyPartition('runs', days[0]);
    const rest = { from: days[1], to: new Date(first.getTime() + DAYS * DAY_MS) };
    const left = {
      oldRuns: await countBetween(ds, 'runs', 'trigger_at', oldest.from, oldest.to),
      oldResults: await countBetween(ds, 'action_results', 'run_trigger_at', oldest.from, oldest.to),
      restRuns: await countBetween(ds, 'runs', 'trigger_at', rest.from, rest.to),
      restResults: await countBetween(ds, 'action_results', 'run_trigger_at', rest.from, rest.to),
    };
    const expectedRest = (DAYS - 1) * PER_DAY;
    if (
      del.result !== PER_DAY ||
      !drop.result.dropped.includes(oldest.name) ||
      left.oldRuns ||
      left.oldResults
    )
      throw new Error(
        `wrong rows went: deleted ${del.result}, ${JSON.stringify({ drop: drop.result, left })}`,
      );
    if (left.restRuns !== expectedRest || left.restResults !== expectedRest)
      throw new Error(`the other days lost rows: ${JSON.stringify(left)}`);
    return { deleteMs: del.ms, deleteWal: del.walBytes, dropMs: drop.ms, dropWal: drop.walBytes };
  } finally {
    await ds.destroy();
  }
}

async function main(): Promise<void> {
  const db = await benchDatabase('retention');
  try {
    const figures: RoundFigures[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Days after the legacy range (the migration's day and before), apart from round to round.
      const first = new Date((Math.floor(Date.now() / DAY_MS) + 10 + i * 10) * DAY_MS);
      figures.push(await round(db.url, first));
    }
    const min = (k: keyof RoundFigures) => Math.min(...figures.map((f) => f[k]));
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
    console.log(
      `\n${PER_DAY} finished runs (+1 action result each) per day, ${DAYS} days, oldest day pruned`,
    );
    console.log(`best of ${ROUNDS} rounds (WAL is cluster-wide):\n`);
    printTable([
      {
        way: 'row deletes (the row pruner)',
        ms: min('deleteMs').toFixed(0),
        'WAL MB': mb(min('deleteWal')),
      },
      { way: 'detach + drop the day', ms: min('dropMs').toFixed(1), 'WAL MB': mb(min('dropWal')) },
    ]);
    console.log(
      `\nper round: ${figures.map((f) => `${f.deleteMs.toFixed(0)}/${f.dropMs.toFixed(1)} ms`).join(', ')}`,
    );
  } finally {
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
