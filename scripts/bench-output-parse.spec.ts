// What the benches print, read back (scripts/bench-output-parse.js): their BENCH_RESULT line, and
// the human output of main at c377cf1, which has no such line. Fixtures are real outputs of quick
// runs: *-c377cf1.txt printed by main at c377cf1, *-head.txt by this branch (human output +
// BENCH_RESULT, so the two readings of one run can be held against each other).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseBenchOutput, parseBenchResult, parseFigure, parseTables } from './bench-output-parse';

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
        expect({ name, close: Math.abs(fromText.metrics[name] - Number(value)) <= 0.051 }).toEqual({
          name,
          close: true,
        });
    },
  );
});
