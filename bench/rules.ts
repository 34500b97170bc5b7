// npm run bench:rules — the matcher (CompiledRuleSet.evaluateEvent: rules indexed by trigger,
// conditions compiled once, the explain trace of every condition recorded) against three
// baselines on the same 500 rules and the same event stream: json-rules-engine used naively, the
// same used well (one Engine per event kind, flat facts) and GoRules' ZEN engine (decision tables).
// All four must decide the same before their speed is compared. Real time: a benchmark, not a test.
import { formatProblems } from '../src/language/rules/format/format-problems';
import { loadRulesFromFiles } from '../src/language/rules/format/load-rules';
import type { EvaluationFacts } from '../src/language/rules/format/rule-types';
import { printTable } from './bench-support';
import { naiveEngine, perKindEngines, zenDecisions, type Baseline } from './rules-baselines';
import { generateEvent, generateRules, KINDS, RULES } from './rules-fixture';
import { percentile } from './stats';

const MATCHER_EVENTS = Number(process.env.BENCH_MATCHER_EVENTS ?? 20_000);
const NAIVE_EVENTS = Number(process.env.BENCH_BASELINE_EVENTS ?? 300);
const GOOD_EVENTS = Number(process.env.BENCH_GOOD_BASELINE_EVENTS ?? 3_000);
const AGREEMENT_EVENTS = 300;

interface Measured {
  name: string;
  events: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function measure(
  name: string,
  events: EvaluationFacts[],
  count: number,
  run: (f: EvaluationFacts) => Promise<unknown>,
): Promise<Measured> {
  for (let i = 0; i < Math.min(200, count); i++) await run(events[i % events.length]); // warm-up
  const times: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await run(events[i % events.length]);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return {
    name,
    events: count,
    perSecond: count / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
}

async function main(): Promise<void> {
  const loaded = loadRulesFromFiles([{ path: 'bench/rules.yaml', text: generateRules() }]);
  if (!loaded.ruleSet)
    throw new Error(`generated rules do not validate:\n${formatProblems(loaded.problems, 'text')}`);
  const set = loaded.ruleSet;
  const events = Array.from({ length: 2000 }, generateEvent);
  const zen = zenDecisions(set.rules);
  const baselines: [Baseline, number][] = [
    [naiveEngine(set.rules), NAIVE_EVENTS],
    [perKindEngines(set.rules), GOOD_EVENTS],
    [zen, GOOD_EVENTS],
  ];

  // Every engine must decide the same thing before its speed means anything.
  let matches = 0;
  for (const facts of events.slice(0, AGREEMENT_EVENTS)) {
    const ours = (await set.evaluateEvent(facts)).filter((e) => e.matched).map((e) => e.ruleId);
    matches += ours.length;
    for (const [baseline] of baselines) {
      const theirs = await baseline.decide(facts);
      if (JSON.stringify(ours.sort()) !== JSON.stringify(theirs.sort()))
        throw new Error(`matcher and ${baseline.name} disagree on ${facts.event.type}: ${ours} vs ${theirs}`);
    }
  }
  console.log(
    `${RULES} rules over ${KINDS.length} event kinds, node ${process.version}; all four engines agree on ` +
      `${AGREEMENT_EVENTS} events (${matches} matches)`,
  );

  const matcher = await measure(
    'matcher, explain traces on (CompiledRuleSet.evaluateEvent)',
    events,
    MATCHER_EVENTS,
    (f) => set.evaluateEvent(f),
  );
  const rows = [matcher];
  for (const [baseline, count] of baselines)
    rows.push(await measure(baseline.name, events, count, baseline.decide));
  zen.dispose();

  const slowest = Math.min(...rows.slice(1).map((r) => matcher.perSecond / r.perSecond));
  printTable(
    rows.map((r) => ({
      engine: r.name,
      events: r.events,
      'events/s': Math.round(r.perSecond),
      'p50 ms': r.p50.toFixed(3),
      'p99 ms': r.p99.toFixed(3),
      'matcher ×': r === matcher ? '' : `${(matcher.perSecond / r.perSecond).toFixed(1)}×`,
    })),
  );
  console.log(
    `matcher ahead of every baseline per event: ${slowest > 1 ? 'yes' : 'NO'} (smallest lead ${slowest.toFixed(1)}×); ` +
      `ahead of the naive engine by ≥ 50×: ${matcher.perSecond / rows[1].perSecond >= 50 ? 'yes' : 'NO'}`,
  );
  // One machine-readable line for scripts/bench-compare.js; names in the order of `rows` above.
  const keys = ['matcher', 'jre_naive', 'jre_well', 'zen'];
  const result: Record<string, string | number> = { bench: 'rules' };
  rows.forEach((r, i) => {
    const key = keys[i] ?? `engine${i}`;
    result[`${key}.events_per_s`] = Math.round(r.perSecond);
    result[`${key}.p50_ms`] = Number(r.p50.toFixed(3));
    result[`${key}.p99_ms`] = Number(r.p99.toFixed(3));
    if (r !== matcher) result[`${key}.matcher_lead_x`] = Number((matcher.perSecond / r.perSecond).toFixed(1));
  });
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  if (slowest <= 1) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
