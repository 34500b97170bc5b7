// The pure half of scripts/bench-compare.js besides the parsing of outputs (./bench-output-parse.js),
// unit-tested in scripts/bench-compare-lib.spec.ts: medians and deltas over rounds, the tables, how
// a tree's bench script splits into build steps and a run command, the command line.
// @ts-check
'use strict';

/** @typedef {Record<string, number>} Metrics */

const BENCHES = ['e2e', 'throughput', 'rules', 'storage'];
/** Run when --benches is not given: bench:storage is left out, since bases older than it have none. */
const DEFAULT_BENCHES = ['e2e', 'throughput', 'rules'];

/**
 * `--quick`: sizes that keep one round (base and head) of all three benches near 70 s on the 2-core
 * machine when it is quiet. Each bench's own BENCH_* variables (read in its header); BENCH_EVENTS
 * means different things to e2e and throughput, hence one set per bench.
 */
const QUICK_ENV = {
  e2e: { BENCH_EVENTS: '100' },
  throughput: {
    BENCH_CONTACTS: '2000',
    BENCH_EVENTS: '2000',
    BENCH_WARMUP_EVENTS: '500',
    BENCH_WORKERS: '1',
  },
  storage: { BENCH_CONTACTS: '2000', BENCH_EVENTS: '1000' },
  rules: { BENCH_MATCHER_EVENTS: '5000', BENCH_BASELINE_EVENTS: '100', BENCH_GOOD_BASELINE_EVENTS: '1000' },
};

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
 * every round's figure ('–' for a round that did not print it), the delta of the medians, and
 * whether the head's median lies within the base's own spread (lowest to highest round): 'yes'
 * means these rounds cannot tell the change from the machine's noise.
 * @param {Metrics[]} baseRounds
 * @param {Metrics[]} headRounds
 */
function compareRounds(baseRounds, headRounds) {
  const names = [...new Set([...baseRounds, ...headRounds].flatMap((m) => Object.keys(m)))];
  return names.map((metric) => {
    const side = (rounds) => {
      const values = rounds.map((m) => (metric in m ? m[metric] : NaN));
      const present = values.filter((v) => !Number.isNaN(v));
      const [low, high] = present.length ? [Math.min(...present), Math.max(...present)] : [NaN, NaN];
      return { median: median(present), low, high, rounds: values.map(formatNumber).join(' / ') };
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
      'head in base range':
        Number.isNaN(base.median) || Number.isNaN(head.median)
          ? '–'
          : head.median >= base.low && head.median <= base.high
            ? 'yes'
            : 'no',
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

/**
 * How a tree runs `bench:<bench>`, from its package.json scripts: the build steps (once per tree;
 * its `pre` script first, as npm would) and the command of each round; null when it has no such
 * script. A script that does not end in `node …` runs whole every round (npm runs its `pre` then).
 * @param {Record<string, string>} scripts
 */
function benchPlan(scripts, bench) {
  const name = `bench:${bench}`;
  if (!scripts[name]) return null;
  const { build, run } = splitBenchScript(scripts[name]);
  if (!run) return { build: [], run: `npm run ${name}` };
  return { build: [...(scripts[`pre${name}`] ? [`npm run pre${name}`] : []), ...build], run };
}

const USAGE = `usage: npm run bench:compare -- --base <git ref> [--benches e2e,throughput,rules] [--rounds N]
       [--quick] [--out file.md] [--logs dir]`;

/** The command line; throws with the usage on anything it does not know. */
function parseArgs(argv) {
  const opts = { base: '', benches: [...DEFAULT_BENCHES], rounds: 3, quick: false, out: '', logs: '' };
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
  median,
  formatNumber,
  formatDelta,
  compareRounds,
  formatTable,
  splitBenchScript,
  benchPlan,
  parseArgs,
};
