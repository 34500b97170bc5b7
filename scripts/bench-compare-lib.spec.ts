// The pure half of npm run bench:compare besides the parsing (scripts/bench-compare-lib.js):
// medians, deltas, the table, how a bench script becomes build steps and a run command, the
// command line.
import {
  benchPlan,
  compareRounds,
  formatDelta,
  formatNumber,
  formatTable,
  median,
  parseArgs,
  splitBenchScript,
} from './bench-compare-lib';

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
  it('gives medians, every round, the delta and whether the head is within the base spread', () => {
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
        'head in base range': 'yes',
      },
      {
        metric: 'max_ms',
        'base median': '35',
        'base rounds': '30 / – / 40',
        'head median': '–',
        'head rounds': '– / – / –',
        delta: '–',
        'head in base range': '–',
      },
      {
        metric: 'extra',
        'base median': '–',
        'base rounds': '– / – / –',
        'head median': '1',
        'head rounds': '1 / – / –',
        delta: '–',
        'head in base range': '–',
      },
    ]);
  });
  it.each([
    [[10, 14, 12], [9, 10, 11], 'yes'],
    [[10, 14, 12], [14, 15, 14], 'yes'],
    [[10, 14, 12], [9, 9, 10], 'no'],
    [[10, 14, 12], [15, 16, 14], 'no'],
    [[10], [10.1], 'no'],
  ])('base rounds %j, head rounds %j: head in base range %s', (base, head, expected) => {
    const [row] = compareRounds(
      base.map((v) => ({ x: v })),
      head.map((v) => ({ x: v })),
    );
    expect(row['head in base range']).toBe(expected);
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

describe('benchPlan', () => {
  const build = 'swc src -d dist/src';
  it.each([
    [
      'the leading steps build once, the node step runs each round',
      { build, 'bench:e2e': 'npm run build && node dist/bench/e2e.js' },
      { build: ['npm run build'], run: 'node dist/bench/e2e.js' },
    ],
    [
      'a pre script builds first, as npm would run it',
      { 'prebench:e2e': 'npm run build:bench', 'bench:e2e': 'node dist-bench/e2e.js' },
      { build: ['npm run prebench:e2e'], run: 'node dist-bench/e2e.js' },
    ],
    [
      'a script not ending in node runs whole each round (npm runs its pre script)',
      { 'prebench:e2e': 'x', 'bench:e2e': 'npm run build && ts-node bench/e2e.ts' },
      { build: [], run: 'npm run bench:e2e' },
    ],
    ['no such script', { build }, null],
  ])('%s', (_what, scripts, plan) => expect(benchPlan(scripts, 'e2e')).toEqual(plan));
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
