// Set-level check: two rules on different triggers (event vs event, segment vs event, segment vs
// segment) managing one tag (or the blocked state) in opposite directions, so a contact both
// apply to flips back and forth. Rules on a shared event are check-conflicts' (an error there);
// rules whose conditions exclude each other (where that can be decided) do not fight. Read path by
// path (rule-paths.ts): two writes fight only if some path performing each can run for the same
// contact (the rule's `if`, or a segment's status, and the arm conditions of the path).
import { actionLabel } from '../../catalogue/catalogue';
import { exclusiveLeafFields, requiredLeaves, undoing, type Leaf } from '../format/condition-leaves';
import { eventsOf, where, type LoadedRule } from '../format/loaded-rule';
import { actionPath } from '../format/parse-steps';
import { armLeaves, onPath, pathsWith, rulePaths, type RulePath } from '../format/rule-paths';
import type { RuleAction, RuleDefinition, RuleProblem } from '../format/rule-types';
import type { YamlPath } from '../format/yaml-source';

interface Write {
  rule: LoadedRule;
  action: RuleAction;
  path: YamlPath;
  /** `on contact.created`, `entering segment "dormant"`, `leaving segment "dormant"`. */
  when: string;
  /** The rule's paths that perform it; on-leave, a list without branches: one path of no conditions. */
  runs: (RulePath | undefined)[];
}

const runsOf = (def: RuleDefinition, i: number) => {
  const { paths } = rulePaths(def);
  return pathsWith(def, i).map((p) => paths[p]);
};

const segmentName = (d: RuleDefinition) =>
  d.trigger.kind === 'schedule' ? `segment ${JSON.stringify(d.trigger.segment.name ?? d.id)}` : '';

function writesOf(rule: LoadedRule): Write[] {
  const { def } = rule;
  if (!def.enabled || def.mode !== 'live') return [];
  if (def.trigger.kind === 'event') {
    // The contact is gone after contact.deleted: nothing flips back afterwards.
    if (def.trigger.events.every((k) => k === 'contact.deleted')) return [];
    const when = `on ${def.trigger.events.join(', ')}`;
    return def.actions.map((action, i) => ({
      rule,
      action,
      path: actionPath(def, i),
      when,
      runs: runsOf(def, i),
    }));
  }
  const entering = `${def.trigger.when === 'every-run' ? 'on every sweep of' : 'entering'} ${segmentName(def)}`;
  return [
    ...def.actions.map((action, i) => ({
      rule,
      action,
      path: actionPath(def, i),
      when: entering,
      runs: runsOf(def, i),
    })),
    ...def.trigger.onLeave.map((action, i) => ({
      rule,
      action,
      path: ['on-leave', i],
      when: `leaving ${segmentName(def)}`,
      runs: [undefined],
    })),
  ];
}

/** What a segment's filters say about the contact, as leaves (only what maps one to one). */
function segmentLeaves(d: RuleDefinition): Leaf[] {
  if (d.trigger.kind !== 'schedule') return requiredLeaves(d);
  const status = d.trigger.segment.filters.status;
  return typeof status === 'string'
    ? [{ field: 'contact.status', op: 'equal', value: status, negated: false }]
    : [];
}

/**
 * What a contact the write acts on along the path satisfies. Leaving a segment acts on contacts no
 * longer in it: its filters say nothing about them.
 */
function leavesOf(w: Write, run: RulePath | undefined): Leaf[] {
  if (w.path[0] === 'on-leave' || !run) return [];
  return [...segmentLeaves(w.rule.def), ...armLeaves(w.rule.def, run)];
}

/** A path performing each write that one contact can be on: undefined when there is none. */
function overlap(a: Write, b: Write): [RulePath | undefined, RulePath | undefined] | undefined {
  for (const pb of b.runs)
    for (const pa of a.runs)
      if (exclusiveLeafFields(leavesOf(a, pa), leavesOf(b, pb)).length === 0) return [pa, pb];
  return undefined;
}

/** Already an error of check-conflicts: live event rules sharing an event. */
const sameTrigger = (a: RuleDefinition, b: RuleDefinition) =>
  eventsOf(a).some((k) => eventsOf(b).includes(k));

export function checkTagFights(rules: LoadedRule[]): RuleProblem[] {
  return findTagFights(rules).map((f) => f.problem);
}

/** Every fight: its problem and the two rules (for the rule graph). */
export function findTagFights(rules: LoadedRule[]): { problem: RuleProblem; rules: [string, string] }[] {
  const writes = rules.flatMap(writesOf);
  const problems: { problem: RuleProblem; rules: [string, string] }[] = [];
  writes.forEach((b, j) => {
    for (const a of writes.slice(0, j)) {
      if (a.rule === b.rule || sameTrigger(a.rule.def, b.rule.def)) continue;
      const fight = undoing(a.action, b.action);
      const runs = fight?.conflict ? overlap(a, b) : undefined;
      if (!fight || !runs) continue;
      const problem: RuleProblem = {
        ...b.rule.at.pos(b.path),
        severity: 'warning',
        code: 'tag-fight',
        message: `fight over ${fight.what}: rule "${b.rule.def.id}" does ${actionLabel(b.action)} ${b.when}${onPath(runs[1])}, and rule "${a.rule.def.id}" (${where(a.rule.def.source)}) does ${actionLabel(a.action)} ${a.when}${onPath(runs[0])}; a contact both apply to flips back and forth: make their conditions exclusive or let one rule own it`,
      };
      problems.push({ problem, rules: [a.rule.def.id, b.rule.def.id] });
    }
  });
  return problems;
}
