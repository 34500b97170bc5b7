// Runs rule tests (*.test.yaml beside the rules) against a compiled rule set, with no CRM and
// no network: the same evaluation the engine does, then a diff of the actions.
import { declaredCategory } from '../../policy/policy-categories';
import { withoutCategory } from '../format/message-categories';
import type { Contact } from '@crm-rules/crm-contract';
import type { CompiledRuleSet } from '../../matching/compiled-rule-set';
import { actionLabel } from '../../catalogue/catalogue';
import { formatTraceList } from '../../matching/format-explain';
import { toMirroredContact } from '../../crm-terms/mirrored-contact';
import { resolveRelativeDates } from '../../segment-filters/resolved-filters';
import { tagNamesFromContact } from '../../segment-filters/contact-in-segment';
import { matchesSegment } from '../../segment-filters/segment-filter';
import { stableStringify } from '../format/content-hash';
import { sortProblems, type RuleFile } from '../format/load-rules';
import { parseRuleTestFile, type RuleTestCase } from './rule-test-cases';
import { RunTimeline } from './run-timeline';
import { renderedTexts } from './rendered-texts';
import type { ExpectedAction } from './expected-actions';
import { GuardedContact, skipText, type SkipOf } from './live-guards';
import { timelinePolicyStep } from './timeline-policy-gate';
import type {
  EvaluationFacts,
  NameResolver,
  RuleAction,
  RuleDefinition,
  RuleProblem,
  ScheduleTrigger,
  SourcePosition,
} from '../format/rule-types';

export interface RuleTestResult {
  file: string;
  name: string;
  pos: SourcePosition;
  passed: boolean;
  /** Diff and explain lines of a failure. */
  details: string[];
  /** Rules the case exercised: the rule it names, or the rules that matched. */
  rules: string[];
}

export interface RuleTestReport {
  results: RuleTestResult[];
  problems: RuleProblem[];
}

export interface RuleTestOutcome {
  /**
   * rendered: the action's templated values as sent (rule tests show them in the diff);
   * skipped: why the engine would not send it (live-guards.ts).
   */
  actions: { action: RuleAction; rule: string; rendered?: string[]; skipped?: SkipOf }[];
  explain: string[];
}

/** `names`: stage and member names of change operators, from the CRM snapshot (snapshotNames). */
export async function runRuleTests(
  ruleSet: CompiledRuleSet,
  files: RuleFile[],
  names?: NameResolver,
): Promise<RuleTestReport> {
  const results: RuleTestResult[] = [];
  const problems: RuleProblem[] = [];
  for (const file of files) {
    const parsed = parseRuleTestFile(file, ruleSet, names);
    problems.push(...parsed.problems);
    for (const c of parsed.cases) results.push(await runCase(ruleSet, c));
  }
  return { results, problems: sortProblems(problems) };
}

async function runCase(ruleSet: CompiledRuleSet, c: RuleTestCase): Promise<RuleTestResult> {
  const result = { file: c.file, name: c.name, pos: c.pos };
  try {
    const rule = c.rule === undefined ? undefined : ruleSet.rule(c.rule);
    if (rule?.trigger.kind === 'schedule') {
      const plain = evaluateSegmentRule(rule.trigger, rule.id, rule.actions, c.facts, c.wasInSegment);
      const outcome = c.guards ? guardedSegmentOutcome(ruleSet, rule, plain, c) : plain;
      const details = c.expected ? compare(c.expected, outcome) : [];
      return { ...result, passed: details.length === 0, details, rules: [rule.id] };
    }
    return { ...result, ...(await runTimeline(ruleSet, c)) };
  } catch (err) {
    return {
      ...result,
      passed: false,
      details: [`error: ${(err as Error).message}`],
      rules: c.rule ? [c.rule] : [],
    };
  }
}

/**
 * Event cases: the event at `now`, then each `then:` step later. Actions are compared per
 * step; one rule is tested even when disabled (its logic is what the case checks).
 */
async function runTimeline(
  ruleSet: CompiledRuleSet,
  c: RuleTestCase,
): Promise<Pick<RuleTestResult, 'passed' | 'details' | 'rules'>> {
  const only = c.rules ? new Set(c.rules) : undefined;
  const timeline = new RunTimeline(ruleSet, c.rule, c.responses, c.sentBefore, c.splitArm, only, c.guards);
  await timeline.event(c.facts);
  const pathNow = () => [...((c.rule ? timeline.paths.get(c.rule) : [...timeline.paths.values()][0]) ?? [])];
  const steps = [
    {
      label: undefined as string | undefined,
      expected: c.expected,
      expectedPath: c.expectedPath,
      path: pathNow(),
      done: timeline.done.splice(0),
    },
  ];
  for (const step of c.later) {
    timeline.setContact(step.contact);
    if (step.facts) await timeline.event(step.facts);
    else timeline.advanceTo(step.now);
    const label = `then after ${step.after} (${step.now.toISOString()}, ${step.pos.file}:${step.pos.line})`;
    const done = timeline.done.splice(0);
    steps.push({ label, expected: step.expected, expectedPath: step.expectedPath, path: pathNow(), done });
  }
  const details: string[] = [];
  for (const step of steps) {
    const outcome = { actions: step.done, explain: [] };
    const lines = step.expected ? compare(step.expected, outcome) : [];
    if (step.expectedPath && JSON.stringify(step.expectedPath) !== JSON.stringify(step.path))
      lines.push(
        `expected path: [${step.expectedPath.join(', ')}]`,
        `actual path: [${step.path.join(', ')}]`,
      );
    if (lines.length > 0) details.push(...(step.label ? [`${step.label}:`] : []), ...lines);
  }
  if (details.length > 0) details.push('explain:', ...timeline.log);
  const acted = steps.flatMap((step) => step.done.map((d) => d.rule));
  return { passed: details.length === 0, details, rules: c.rule ? [c.rule] : [...new Set(acted)] };
}

/** An action and why it is skipped, if it is, as compared. */
const keyOf = (action: RuleAction, skipped: string | undefined): string =>
  `${stableStringify(action)}${skipped ? ` skipped: ${skipped}` : ''}`;

/** Diff and explain lines when the actions differ; none when they are the same, in order. */
function compare(expectedActions: ExpectedAction[], outcome: RuleTestOutcome): string[] {
  const expected = expectedActions.map((e) => keyOf(e.action, e.skipped));
  // A policy category stamped on a message is compared only when the expectation names one.
  const actual = outcome.actions.map((a, i) =>
    keyOf(
      declaredCategory(expectedActions[i]?.action) ? a.action : withoutCategory(a.action),
      a.skipped?.reason,
    ),
  );
  const passed = expected.length === actual.length && expected.every((e, i) => e === actual[i]);
  return passed
    ? []
    : [
        ...diff(expectedActions, outcome.actions),
        ...(outcome.explain.length ? ['explain:', ...outcome.explain] : []),
      ];
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
  const filters = resolveRelativeDates(
    tagNamesFromContact(trigger.segment.filters, facts.contact),
    facts.now,
  );
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
  const rendered = (action: RuleAction) => renderedTexts(action, facts);
  return { actions: chosen.map((action) => ({ action, rule: ruleId, rendered: rendered(action) })), explain };
}

/**
 * Expected vs actual, as a list diff: missing lines (-) and unexpected lines (+, with the rule).
 * A skipped action shows its reason (and, when it happened, the guard's detail).
 */
function diff(expected: ExpectedAction[], actual: RuleTestOutcome['actions']): string[] {
  const label = (e: ExpectedAction) =>
    `${actionLabel(e.action)}${e.skipped ? `   skipped: ${e.skipped}` : ''}`;
  const lines = ['expected:', ...(expected.length ? expected.map((e) => `  - ${label(e)}`) : ['  (none)'])];
  const shown = (a: RuleTestOutcome['actions'][number]) =>
    `${actionLabel(a.action)}${a.skipped ? `   ${skipText(a.skipped)}` : ''}`;
  lines.push(
    'actual:',
    ...(actual.length
      ? actual.map((a) => `  - ${shown(a)}   (rule ${a.rule})${renders(a.rendered)}`)
      : ['  (none)']),
  );
  const left = actual.map((a) => keyOf(a.action, a.skipped?.reason));
  const missing: string[] = [];
  for (const e of expected) {
    const i = left.indexOf(keyOf(e.action, e.skipped));
    if (i === -1) missing.push(`  - ${label(e)}   (missing)`);
    else left[i] = '';
  }
  const unexpected = actual
    .filter((_, i) => left[i] !== '')
    .map((a) => `  + ${shown(a)}   (unexpected, from rule ${a.rule})`);
  lines.push(
    'diff:',
    ...(missing.length + unexpected.length
      ? [...missing, ...unexpected]
      : ['  same actions, in a different order']),
  );
  return lines;
}

/**
 * A segment rule's actions with the live guards: the policy, then assign-first and the message's
 * guard (live-guards.ts), as for event rules; a deferred message is listed (it goes later).
 */
function guardedSegmentOutcome(
  ruleSet: CompiledRuleSet,
  rule: RuleDefinition,
  outcome: RuleTestOutcome,
  c: RuleTestCase,
): RuleTestOutcome {
  const guarded = new GuardedContact();
  const sent = c.sentBefore.map((at) => ({ at }));
  const run = { rule: { ...rule, actions: outcome.actions.map((a) => a.action) }, trigger: c.facts };
  const actions = outcome.actions.map((a, next) => {
    const held = timelinePolicyStep(ruleSet.policy, { ...run, next }, c.facts, sent);
    const skipped =
      held.kind === 'skip'
        ? { reason: held.reason, detail: held.detail }
        : guarded.guard(a.action, guarded.over(c.facts.contact));
    if (!skipped && held.kind === 'send') sent.push({ at: c.facts.now });
    return skipped ? { ...a, skipped } : a;
  });
  const notes = actions.flatMap((a, i) =>
    a.skipped ? [`  rule ${rule.id}: action ${i + 1} ${skipText(a.skipped)}`] : [],
  );
  return { actions, explain: [...outcome.explain, ...notes] };
}

const renders = (texts: string[] | undefined): string =>
  texts?.length ? `, renders ${texts.map((t) => JSON.stringify(t)).join(', ')}` : '';
