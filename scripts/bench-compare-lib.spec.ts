// The pure half of npm run bench:compare: reading what the three benches print (their BENCH_RESULT
// line, and the human output of main at c377cf1, which has no such line), medians, deltas and the
// table. Fixtures are real outputs of quick runs: *-c377cf1.txt printed by main at c377cf1,
// *-head.txt by this branch (human output + BENCH_RESULT).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareRounds,
  formatDelta,
  formatNumber,
  formatTable,
  median,
  parseArgs,
  parseBenchOutput,
  parseBenchResult,
  parseFigure,
  parseTables,
  splitBenchScript,
} from './bench-compare-lib';

const fixture = (name: string) => readFileSync(join(__dirname, 'bench-compare-fixtures', name), 'utf8');
const withoutResultLine = (text: string) =>
  text
    .split('\n')
    .filter((l) => !l.startsWith('BENCH_RESULT '))
    .join('\n');

describe('parseFigure', () => {
  it.each([
    ['12.5', 12.5],
    ['1000', 1000],
    ['552.6×', 552.6],
    ['  0.039 ', 0.039],
    ['-3.5%', -3.5],
    ['', NaN],
    ['626 / 201', NaN],
    ['>= 2000 NO', NaN],
    ['NaN', NaN],
  ])('%j → %p', (text, expected) => expect(parseFigure(text)).toEqual(expected));
});

describe('parseBenchResult', () => {
  it.each([
    ['no line', 'p50 12 ms\n', null],
    [
      'numbers only, bench left out',
      'x\nBENCH_RESULT {"bench":"e2e","p50_ms":1.5,"note":"a","n":null}\n',
      { p50_ms: 1.5 },
    ],
    ['the last line wins', 'BENCH_RESULT {"a":1}\nmore\nBENCH_RESULT {"a":2}\nreceived SIGTERM\n', { a: 2 }],
    ['a line must start with the tag', 'log: BENCH_RESULT {"a":1}\n', null],
  ])('%s', (_what, output, expected) => expect(parseBenchResult(output)).toEqual(expected));
});

describe('parseTables', () => {
  it('reads each printed table as rows keyed by its header, with text around it', () => {
    const output = [
      'before',
      '| engine | p50 ms |',
      '|--------|--------|',
      '| a, b   | 1.5    |',
      '| c      |        |',
      'between',
      '| x |',
      '|---|',
      '| 1 |',
    ].join('\n');
    expect(parseTables(output)).toEqual([
      [
        { engine: 'a, b', 'p50 ms': '1.5' },
        { engine: 'c', 'p50 ms': '' },
      ],
      [{ x: '1' }],
    ]);
  });
});

describe('the human output of main at c377cf1', () => {
  it.each([
    [
      'e2e',
      { measured: 100, p50_ms: 205.9, to_run_p99_ms: 192.9, run_to_call_max_ms: 256.8, loop_p99_ms: 34.2 },
      17,
    ],
    [
      'throughput',
      { 'w1.no-action.cpu_api_ms_per_event': 0.23, 'w1.guarded.end_to_end_per_s': 381, peak_rss_mb: 159 },
      17,
    ],
    ['rules', { 'matcher.p50_ms': 0.041, 'jre_naive.matcher_lead_x': 888.4, 'zen.events_per_s': 174 }, 15],
  ])('%s: figures from the tables and lines it prints', (bench, some, count) => {
    const { source, metrics } = parseBenchOutput(bench, fixture(`${bench}-c377cf1.txt`));
    expect(source).toBe('human output');
    expect(metrics).toMatchObject(some);
    expect(Object.keys(metrics)).toHaveLength(count);
  });
});

describe('BENCH_RESULT and the human output of the same run', () => {
  it.each(['e2e', 'throughput', 'rules'])(
    '%s: same names, same figures up to the printed rounding',
    (bench) => {
      const output = fixture(`${bench}-head.txt`);
      const fromLine = parseBenchOutput(bench, output);
      const fromText = parseBenchOutput(bench, withoutResultLine(output));
      expect(fromLine.source).toBe('BENCH_RESULT');
      expect(fromText.source).toBe('human output');
      expect(Object.keys(fromText.metrics).sort()).toEqual(Object.keys(fromLine.metrics).sort());
      for (const [name, value] of Object.entries(fromLine.metrics))
        expect({ name, close: Math.abs(fromText.metrics[name] - value) <= 0.051 }).toEqual({
          name,
          close: true,
        });
    },
  );
});

describe('median', () => {
  it.each([
    [[], NaN],
    [[5], 5],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
  ])('%j → %p', (values, expected) => expect(median(values)).toEqual(expected));
});

describe('formatNumber and formatDelta', () => {
  it.each([
    [0.04521, '0.0452'],
    [17.24, '17.2'],
    [206, '206'],
    [26980.4, '26980'],
    [NaN, '–'],
  ])('formatNumber(%p) → %s', (value, text) => expect(formatNumber(value)).toBe(text));

  it.each([
    [100, 110, '+10.0%'],
    [200, 150, '-25.0%'],
    [5, 5, '0.0%'],
    [0, 0, '0.0%'],
    [0, 3, '–'],
    [NaN, 3, '–'],
  ])('formatDelta(%p, %p) → %s', (base, head, text) => expect(formatDelta(base, head)).toBe(text));
});

describe('compareRounds', () => {
  it('gives medians, every round and the delta; a round without a figure shows –', () => {
    const rows = compareRounds(
      [{ p50_ms: 10, max_ms: 30 }, { p50_ms: 14 }, { p50_ms: 12, max_ms: 40 }],
      [{ p50_ms: 9, extra: 1 }, { p50_ms: 11 }, { p50_ms: 10 }],
    );
    expect(rows).toEqual([
      {
        metric: 'p50_ms',
        'base median': '12',
        'base rounds': '10 / 14 / 12',
        'head median': '10',
        'head rounds': '9 / 11 / 10',
        delta: '-16.7%',
      },
      {
        metric: 'max_ms',
        'base median': '35',
        'base rounds': '30 / – / 40',
        'head median': '–',
        'head rounds': '– / – / –',
        delta: '–',
      },
      {
        metric: 'extra',
        'base median': '–',
        'base rounds': '– / – / –',
        'head median': '1',
        'head rounds': '1 / – / –',
        delta: '–',
      },
    ]);
  });
});

describe('formatTable', () => {
  it('pads the columns and right-aligns all but the first', () => {
    expect(
      formatTable([
        { metric: 'p50_ms', delta: '+1.0%' },
        { metric: 'a', delta: '-12.5%' },
      ]),
    ).toBe(
      ['| metric | delta  |', '|--------|-------:|', '| p50_ms | +1.0%  |', '| a      | -12.5% |'].join('\n'),
    );
  });

  it('prints nothing for no rows', () => expect(formatTable([])).toBe(''));
});

describe('splitBenchScript', () => {
  it.each([
    ['npm run build && node dist/bench/e2e.js', ['npm run build'], 'node dist/bench/e2e.js'],
    [
      'npm run build:bench && tsc -p bench && node dist-bench/rules.js --x',
      ['npm run build:bench', 'tsc -p bench'],
      'node dist-bench/rules.js --x',
    ],
    ['node dist/bench/e2e.js', [], 'node dist/bench/e2e.js'],
    ['npm run build && ts-node bench/e2e.ts', ['npm run build', 'ts-node bench/e2e.ts'], null],
    ['npm run build && node x.js | tee out', ['npm run build', 'node x.js | tee out'], null],
  ])('%s', (script, build, run) => expect(splitBenchScript(script)).toEqual({ build, run }));
});

describe('parseArgs', () => {
  it.each([
    [['--base', 'main'], { base: 'main', benches: ['e2e', 'throughput', 'rules'], rounds: 3, quick: false }],
    [
      ['--base', 'c377cf1', '--benches', 'e2e,rules', '--rounds', '5', '--quick', '--out', 'x.md'],
      { base: 'c377cf1', benches: ['e2e', 'rules'], rounds: 5, quick: true, out: 'x.md' },
    ],
  ])('%j', (argv, expected) => expect(parseArgs(argv)).toMatchObject(expected));

  it.each([
    [[], /--base is required/],
    [['--base'], /--base needs a value/],
    [['--base', 'main', '--rounds', '0'], /--rounds must be/],
    [['--base', 'main', '--rounds', '1.5'], /--rounds must be/],
    [['--base', 'main', '--benches', 'e2e,intake'], /--benches: one or more of e2e,throughput,rules/],
    [['--base', 'main', '--fast'], /unknown argument --fast/],
  ])('%j is refused with the usage', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(message);
    expect(() => parseArgs(argv)).toThrow(/usage: npm run bench:compare/);
  });
});
