// Runs rule tests (*.test.yaml beside the rules) against a compiled rule set, with no CRM and
// no network: the same evaluation the engine does, then a diff of the actions.
import type { Contact } from '../crm/crm-types';
import type { CompiledRuleSet } from '../matching/compiled-rule-set';
import { actionLabel } from '../actions/catalogue/catalogue';
import { formatEvaluation, formatTraceList } from '../matching/format-explain';
import { toMirroredContact } from '../contacts/mirrored-contact';
import { resolveRelativeDates } from '../segments/filters/resolved-filters';
import { matchesSegment } from '../segments/filters/segment-filter';
import { stableStringify } from './content-hash';
import { sortProblems, type RuleFile } from './load-rules';
import { parseRuleTestFile, type RuleTestCase } from './rule-test-cases';
import type { EvaluationFacts, RuleAction, RuleProblem, ScheduleTrigger, SourcePosition } from './rule-types';

export interface RuleTestResult {
  file: string;
  name: string;
  pos: SourcePosition;
  passed: boolean;
  /** Diff and explain lines of a failure. */
  details: string[];
}

export interface RuleTestReport {
  results: RuleTestResult[];
  problems: RuleProblem[];
}

export interface RuleTestOutcome {
  actions: { action: RuleAction; rule: string }[];
  explain: string[];
}

export async function runRuleTests(ruleSet: CompiledRuleSet, files: RuleFile[]): Promise<RuleTestReport> {
  const results: RuleTestResult[] = [];
  const problems: RuleProblem[] = [];
  for (const file of files) {
    const parsed = parseRuleTestFile(file, ruleSet);
    problems.push(...parsed.problems);
    for (const c of parsed.cases) results.push(await runCase(ruleSet, c));
  }
  return { results, problems: sortProblems(problems) };
}

async function runCase(ruleSet: CompiledRuleSet, c: RuleTestCase): Promise<RuleTestResult> {
  let outcome: RuleTestOutcome;
  try {
    outcome = await evaluateCase(ruleSet, c);
  } catch (err) {
    return {
      file: c.file,
      name: c.name,
      pos: c.pos,
      passed: false,
      details: [`error: ${(err as Error).message}`],
    };
  }
  const expected = c.expected.map((a) => stableStringify(a));
  const actual = outcome.actions.map((a) => stableStringify(a.action));
  const passed = expected.length === actual.length && expected.every((e, i) => e === actual[i]);
  const details = passed ? [] : [...diff(c.expected, outcome.actions), 'explain:', ...outcome.explain];
  return { file: c.file, name: c.name, pos: c.pos, passed, details };
}

async function evaluateCase(ruleSet: CompiledRuleSet, c: RuleTestCase): Promise<RuleTestOutcome> {
  const rule = c.rule === undefined ? undefined : ruleSet.rule(c.rule);
  if (rule?.trigger.kind === 'schedule')
    return evaluateSegmentRule(rule.trigger, rule.id, rule.actions, c.facts, c.wasInSegment);
  const type = c.facts.event.type;
  // One rule is tested even when disabled (its logic is what the case checks); the whole set as it runs.
  const evaluations = rule
    ? rule.trigger.kind === 'event' && rule.trigger.events.includes(type)
      ? [await ruleSet.evaluateRule(rule.id, c.facts)]
      : []
    : await ruleSet.evaluateEvent(c.facts);
  const explain = evaluations.flatMap((e) => formatEvaluation(ruleSet.rule(e.ruleId)!, e, '  '));
  if (evaluations.length === 0)
    explain.push(rule ? `  rule ${rule.id} does not listen to ${type}` : `  no rule listens to ${type}`);
  const actions = evaluations
    .filter((e) => e.matched)
    .flatMap((e) => e.actions.map((action) => ({ action, rule: e.ruleId })));
  return { actions, explain };
}

/** Segment rules: membership now vs at the previous run decides entered / left / stayed. */
export function evaluateSegmentRule(
  trigger: ScheduleTrigger,
  ruleId: string,
  actions: RuleAction[],
  facts: EvaluationFacts,
  wasInSegment: boolean,
): RuleTestOutcome {
  if (!facts.contact) throw new Error(`segment rule ${ruleId} needs a contact`);
  const filters = resolveRelativeDates(trigger.segment.filters, facts.now);
  const match = matchesSegment(filters, toMirroredContact(facts.contact as unknown as Contact), facts.now);
  const change = match.matched
    ? wasInSegment
      ? 'stays in'
      : 'entered'
    : wasInSegment
      ? 'left'
      : 'is not in';
  const runs =
    change === 'entered' || (change === 'stays in' && trigger.when === 'every-run')
      ? 'do'
      : change === 'left'
        ? 'on-leave'
        : undefined;
  const chosen = runs === 'do' ? actions : runs === 'on-leave' ? trigger.onLeave : [];
  const explain = [
    `  rule ${ruleId}: the contact ${change} the segment${runs ? `, so ${runs} runs` : ''}`,
    ...formatTraceList(match.trace, '    '),
  ];
  return { actions: chosen.map((action) => ({ action, rule: ruleId })), explain };
}

/** Expected vs actual, as a list diff: missing lines (-) and unexpected lines (+, with the rule). */
function diff(expected: RuleAction[], actual: RuleTestOutcome['actions']): string[] {
  const lines = [
    'expected:',
    ...(expected.length ? expected.map((a) => `  - ${actionLabel(a)}`) : ['  (none)']),
  ];
  lines.push(
    'actual:',
    ...(actual.length ? actual.map((a) => `  - ${actionLabel(a.action)}   (rule ${a.rule})`) : ['  (none)']),
  );
  const left = actual.map((a) => stableStringify(a.action));
  const missing: string[] = [];
  for (const e of expected) {
    const i = left.indexOf(stableStringify(e));
    if (i === -1) missing.push(`  - ${actionLabel(e)}   (missing)`);
    else left[i] = '';
  }
  const unexpected = actual
    .filter((_, i) => left[i] !== '')
    .map((a) => `  + ${actionLabel(a.action)}   (unexpected, from rule ${a.rule})`);
  lines.push(
    'diff:',
    ...(missing.length + unexpected.length
      ? [...missing, ...unexpected]
      : ['  same actions, in a different order']),
  );
  return lines;
}
