// The pure half of scripts/bench-compare.js (no I/O, so it is unit-tested in
// scripts/bench-compare-lib.spec.ts): reading the figures a benchmark printed, either its
// `BENCH_RESULT {json}` line or, for builds from before that line existed (main at c377cf1), its
// human output; medians and deltas over rounds; the tables; how a bench script splits into its
// build steps and its run command; the command line.
// @ts-check
'use strict';

/** @typedef {Record<string, number>} Metrics */

const BENCHES = ['e2e', 'throughput', 'rules'];

/**
 * `--quick`: sizes that keep one base/head round of all three benches around a minute on the shared
 * 2-core machine. Each bench's own BENCH_* variables (read in its header); BENCH_EVENTS means
 * different things to e2e and throughput, hence one set per bench.
 */
const QUICK_ENV = {
  e2e: { BENCH_EVENTS: '100' },
  throughput: {
    BENCH_CONTACTS: '2000',
    BENCH_EVENTS: '2000',
    BENCH_WARMUP_EVENTS: '500',
    BENCH_WORKERS: '1',
  },
  rules: { BENCH_MATCHER_EVENTS: '5000', BENCH_BASELINE_EVENTS: '100', BENCH_GOOD_BASELINE_EVENTS: '1000' },
};

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

function median(values) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Three significant digits, whole numbers from 1000 up: 0.04521 → '0.0452', 17.24 → '17.2', 26980.4 → '26980'. */
function formatNumber(value) {
  if (value === undefined || Number.isNaN(value)) return '–';
  if (Math.abs(value) >= 1000) return String(Math.round(value));
  return String(Number(value.toPrecision(3)));
}

/** Head against base in percent of base, signed; '–' when either is missing or base is 0. */
function formatDelta(base, head) {
  if (Number.isNaN(base) || Number.isNaN(head)) return '–';
  if (base === 0) return head === 0 ? '0.0%' : '–';
  const pct = ((head - base) / Math.abs(base)) * 100;
  return `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

/**
 * One row per metric seen in any round of either side (base's order first), with the medians,
 * every round's figure ('–' for a round that did not print it) and the delta of the medians.
 * @param {Metrics[]} baseRounds
 * @param {Metrics[]} headRounds
 */
function compareRounds(baseRounds, headRounds) {
  const names = [...new Set([...baseRounds, ...headRounds].flatMap((m) => Object.keys(m)))];
  return names.map((metric) => {
    const side = (rounds) => {
      const values = rounds.map((m) => (metric in m ? m[metric] : NaN));
      const med = median(values.filter((v) => !Number.isNaN(v)));
      return { median: med, rounds: values.map(formatNumber).join(' / ') };
    };
    const base = side(baseRounds);
    const head = side(headRounds);
    return {
      metric,
      'base median': formatNumber(base.median),
      'base rounds': base.rounds,
      'head median': formatNumber(head.median),
      'head rounds': head.rounds,
      delta: formatDelta(base.median, head.median),
    };
  });
}

/** A Markdown table with padded columns (readable as text too), like bench-support's printTable. */
function formatTable(rows) {
  if (!rows.length) return '';
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells) => '| ' + cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
  const rule =
    '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [line(keys), rule, ...rows.map((r) => line(keys.map((k) => r[k])))].join('\n');
}

/**
 * `npm run build && node dist/bench/e2e.js` → build steps ['npm run build'], run 'node dist/bench/e2e.js':
 * the build runs once per tree, the run once per round. A script whose last step is not
 * `node …` gets run: null (the caller then runs the whole script every round).
 */
function splitBenchScript(script) {
  const steps = script
    .split('&&')
    .map((s) => s.trim())
    .filter(Boolean);
  const last = steps[steps.length - 1] ?? '';
  if (!/^node\s/.test(last) || /[;|&<>`$]/.test(last)) return { build: steps, run: null };
  return { build: steps.slice(0, -1), run: last };
}

const USAGE = `usage: npm run bench:compare -- --base <git ref> [--benches e2e,throughput,rules] [--rounds N]
       [--quick] [--out file.md] [--logs dir]`;

/** The command line; throws with the usage on anything it does not know. */
function parseArgs(argv) {
  const opts = { base: '', benches: [...BENCHES], rounds: 3, quick: false, out: '', logs: '' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === '--base') opts.base = value();
    else if (arg === '--benches')
      opts.benches = value()
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean);
    else if (arg === '--rounds') opts.rounds = Number(value());
    else if (arg === '--quick') opts.quick = true;
    else if (arg === '--out') opts.out = value();
    else if (arg === '--logs') opts.logs = value();
    else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  if (!opts.base) throw new Error(`--base is required\n${USAGE}`);
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1)
    throw new Error(`--rounds must be a whole number ≥ 1\n${USAGE}`);
  const unknown = opts.benches.filter((b) => !BENCHES.includes(b));
  if (unknown.length || !opts.benches.length)
    throw new Error(`--benches: one or more of ${BENCHES.join(',')}\n${USAGE}`);
  return opts;
}

module.exports = {
  BENCHES,
  QUICK_ENV,
  USAGE,
  parseFigure,
  parseBenchResult,
  parseTables,
  parseBenchOutput,
  median,
  formatNumber,
  formatDelta,
  compareRounds,
  formatTable,
  splitBenchScript,
  parseArgs,
};
