// What the benches print, read back for scripts/bench-compare.js: the `BENCH_RESULT {json}` line
// that bench/e2e.ts, bench/throughput.ts and bench/rules.ts print at the end, or, for builds from
// before that line existed (main at c377cf1 and earlier), their human output (the tables of
// bench/bench-support.ts#printTable and a few summary lines). Pure; tested in
// scripts/bench-output-parse.spec.ts on real outputs of both kinds.
// @ts-check
'use strict';

/** @typedef {Record<string, number>} Metrics */

/** A figure as printed: `552.6×`, `12.5`, `1000`; NaN for anything else (`''`, `626 / 201`). */
function parseFigure(text) {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(?:×|%|ms|MB)?\s*$/.exec(String(text));
  return m ? Number(m[1]) : NaN;
}

/** The last `BENCH_RESULT {json}` line's numeric fields, or null when there is none. */
function parseBenchResult(output) {
  const lines = output.split('\n').filter((l) => l.startsWith('BENCH_RESULT '));
  if (!lines.length) return null;
  const parsed = JSON.parse(lines[lines.length - 1].slice('BENCH_RESULT '.length));
  /** @type {Metrics} */
  const metrics = {};
  for (const [key, value] of Object.entries(parsed))
    if (key !== 'bench' && typeof value === 'number') metrics[key] = value;
  return metrics;
}

/** The tables bench/bench-support.ts#printTable printed: each a list of rows keyed by header. */
function parseTables(output) {
  /** @type {Record<string, string>[][]} */
  const tables = [];
  const lines = output.split('\n').map((l) => l.trim());
  const cells = (line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
  for (let i = 0; i + 1 < lines.length; i++) {
    const isRow = (l) => l.length > 1 && l.startsWith('|') && l.endsWith('|');
    if (!isRow(lines[i]) || !/^\|[-:| ]+\|$/.test(lines[i + 1])) continue;
    const header = cells(lines[i]);
    const rows = [];
    let j = i + 2;
    for (; j < lines.length && isRow(lines[j]); j++) {
      const values = cells(lines[j]);
      rows.push(Object.fromEntries(header.map((h, k) => [h, values[k] ?? ''])));
    }
    tables.push(rows);
    i = j - 1;
  }
  return tables;
}

/** Sets `name` when `text` holds a figure, so a missing or odd cell leaves a gap, not a 0. */
function put(metrics, name, text) {
  const value = parseFigure(text);
  if (!Number.isNaN(value)) metrics[name] = value;
}

/** bench/e2e.ts as of c377cf1: the latency table, the dispatch counts, the event-loop delay. */
function parseE2eHuman(output) {
  /** @type {Metrics} */
  const metrics = {};
  const table = parseTables(output).find((t) => t.length && 'measured' in t[0] && 'p50 ms' in t[0]) ?? [];
  table.forEach((row, i) => {
    const prefix =
      i === 0
        ? ''
        : /→ run created/.test(row.measured)
          ? 'to_run_'
          : /run created →/.test(row.measured)
            ? 'run_to_call_'
            : null;
    if (prefix === null) return;
    if (i === 0) put(metrics, 'measured', row.measured);
    for (const col of ['p50', 'p95', 'p99', 'max']) put(metrics, `${prefix}${col}_ms`, row[`${col} ms`]);
  });
  const dispatch = /runs executed in the events job \/ queued: (.*)/.exec(output);
  if (dispatch)
    for (const [, how, n] of dispatch[1].matchAll(/(\w+) (\d+)/g)) metrics[`dispatch_${how}`] = Number(n);
  const loop = /event-loop delay of the engine process.*?: p50 ([\d.]+) ms, p99 ([\d.]+) ms/.exec(output);
  if (loop) {
    metrics.loop_p50_ms = Number(loop[1]);
    metrics.loop_p99_ms = Number(loop[2]);
  }
  return metrics;
}

/** bench/throughput.ts's row columns and the names its BENCH_RESULT line gives them. */
const THROUGHPUT_COLUMNS = {
  'intake req/s': 'intake_req_per_s',
  'intake p99 ms': 'intake_p99_ms',
  'end to end /s': 'end_to_end_per_s',
  'CPU ms/ev api': 'cpu_api_ms_per_event',
  'CPU workers': 'cpu_workers_ms_per_event',
  'CPU postgres': 'cpu_postgres_ms_per_event',
  'pg commits/event': 'pg_commits_per_event',
  'pg rows/event': 'pg_rows_per_event',
};

/** bench/throughput.ts as of c377cf1: one row per worker count and mode, then the peak RSS. */
function parseThroughputHuman(output) {
  /** @type {Metrics} */
  const metrics = {};
  const table = parseTables(output).find((t) => t.length && 'workers' in t[0] && 'mode' in t[0]) ?? [];
  for (const row of table)
    for (const [column, name] of Object.entries(THROUGHPUT_COLUMNS))
      put(metrics, `w${row.workers}.${row.mode}.${name}`, row[column]);
  const rss = /^largest: (\d+(?:\.\d+)?) MB/m.exec(output);
  if (rss) metrics.peak_rss_mb = Number(rss[1]);
  return metrics;
}

/** bench/rules.ts's engines (by their printed names) and the keys its BENCH_RESULT line uses. */
function rulesEngineKey(name) {
  if (/^matcher\b/.test(name)) return 'matcher';
  if (/json-rules-engine, naive/.test(name)) return 'jre_naive';
  if (/json-rules-engine, used well/.test(name)) return 'jre_well';
  if (/\bZEN\b/.test(name)) return 'zen';
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/** bench/rules.ts as of c377cf1: one row per engine. */
function parseRulesHuman(output) {
  /** @type {Metrics} */
  const metrics = {};
  const table = parseTables(output).find((t) => t.length && 'engine' in t[0] && 'events/s' in t[0]) ?? [];
  for (const row of table) {
    const key = rulesEngineKey(row.engine);
    put(metrics, `${key}.events_per_s`, row['events/s']);
    put(metrics, `${key}.p50_ms`, row['p50 ms']);
    put(metrics, `${key}.p99_ms`, row['p99 ms']);
    put(metrics, `${key}.matcher_lead_x`, row['matcher ×']);
  }
  return metrics;
}

const HUMAN_PARSERS = { e2e: parseE2eHuman, throughput: parseThroughputHuman, rules: parseRulesHuman };

/**
 * The figures of one run of `bench`: its BENCH_RESULT line when it printed one, else its human
 * output. `source` says which, so a table can say what it compared.
 */
function parseBenchOutput(bench, output) {
  const fromLine = parseBenchResult(output);
  if (fromLine) return { source: 'BENCH_RESULT', metrics: fromLine };
  const human = HUMAN_PARSERS[bench];
  return { source: 'human output', metrics: human ? human(output) : {} };
}

module.exports = { parseFigure, parseBenchResult, parseTables, parseBenchOutput };
