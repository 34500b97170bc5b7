// Branches in `do`, as written: `if` / `then` / `else`, `switch` (named cases and a default) and
// `split` (weighted arms). Each becomes a BranchStep whose arms cover ranges of the depth-first
// action numbering (parse-steps.ts walks the arms). Conditions are checked by the same code as the
// rule's `if`; one that can never hold is an `impossible-condition`, an arm with no steps an `empty-arm`.
import { checkConditions } from '../checks/check-conditions';
import { stableStringify } from './content-hash';
import { impossibleCondition } from '../checks/impossible-conditions';
import { walkSteps, type StepWalk } from './parse-steps';
import { isPlainObject } from './problem-collector';
import type { BranchArm, BranchStep } from './rule-types';
import type { YamlPath } from './yaml-source';

type Raw = Record<string, unknown>;

export function isBranchItem(item: unknown): item is Raw {
  return isPlainObject(item) && (('if' in item && 'then' in item) || 'switch' in item || 'split' in item);
}

/** A branch step opened where the walk stands; its arms are pushed as they are walked. */
export function openBranch(kind: BranchStep['kind'], at: YamlPath, walk: StepWalk): BranchStep {
  const step: BranchStep = {
    kind,
    at: walk.items.length,
    end: 0,
    afterWaits: walk.waits.length,
    source: [...at],
    arms: [],
  };
  walk.branches.push(step);
  return step;
}

export function parseBranch(
  item: Raw,
  at: YamlPath,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
): void {
  const kind = 'split' in item ? 'split' : 'switch' in item ? 'switch' : 'if';
  const step = openBranch(kind, at, walk);
  if (kind === 'if') {
    const when = branchCondition(item.if, [...at, 'if'], walk, kinds);
    step.arms.push(walkArm(item.then, [...at, 'then'], 'then', walk, kinds, when));
    step.arms.push(walkArm(item.else, [...at, 'else'], 'else', walk, kinds));
  } else if (kind === 'switch') {
    const sw = isPlainObject(item.switch) ? item.switch : {};
    const cases = isPlainObject(sw.cases) ? sw.cases : {};
    const seen = new Map<string, string>(); // condition -> the first case with it
    for (const [name, c] of Object.entries(cases)) {
      const path = [...at, 'switch', 'cases', name];
      const raw = isPlainObject(c) ? c : {};
      const when = branchCondition(raw.if, [...path, 'if'], walk, kinds);
      const same = when && repeatedCase(seen, name, when);
      if (same)
        walk.ctx.warn(
          [...path, 'if'],
          'duplicate-case',
          `case ${name} repeats the condition of case ${same}, which is checked first: it can never be taken`,
        );
      step.arms.push(walkArm(raw.do, [...path, 'do'], `case:${name}`, walk, kinds, when));
    }
    step.arms.push(walkArm(sw.default, [...at, 'switch', 'default'], 'default', walk, kinds));
  } else {
    const split = isPlainObject(item.split) ? item.split : {};
    const arms = isPlainObject(split.arms) ? split.arms : {};
    for (const [name, a] of Object.entries(arms)) {
      const path = [...at, 'split', 'arms', name];
      const raw = isPlainObject(a) ? a : {};
      const weight = typeof raw.weight === 'number' ? raw.weight : 0;
      if (!(weight > 0))
        walk.ctx.error([...path, 'weight'], 'empty-arm', `arm ${name} needs a weight above 0`);
      // A control arm sends nothing (the experiment's baseline): it has no steps.
      if (raw.control === true) {
        if (raw.do !== undefined)
          walk.ctx.error(
            [...path, 'do'],
            'empty-arm',
            `arm ${name} is a control arm: it sends nothing, drop its do`,
            'key',
          );
        step.arms.push({
          label: `arm:${name}`,
          from: walk.items.length,
          to: walk.items.length,
          weight,
          control: true,
        });
        continue;
      }
      const arm = walkArm(raw.do, [...path, 'do'], `arm:${name}`, walk, kinds, undefined, true);
      step.arms.push({ ...arm, weight });
    }
  }
  step.end = walk.items.length;
}

/**
 * One arm's steps. An absent optional arm (else, default, on-event, on-timeout) covers no action;
 * a present one, and then / a case / a split arm, must have steps (`required`).
 */
export function walkArm(
  raw: unknown,
  path: YamlPath,
  label: string,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
  when?: Record<string, unknown>,
  required = label === 'then' || label.startsWith('case:'),
): BranchArm {
  const from = walk.items.length;
  if (raw === undefined && !required) return { label, from, to: from };
  if (!Array.isArray(raw) || raw.length === 0) {
    walk.ctx.error(
      path,
      'empty-arm',
      `${label} has no steps: give it at least one action${required ? '' : ', or leave it out'}`,
      raw === undefined ? 'key' : 'value',
    );
    return { label, from, to: from };
  }
  walkSteps(raw, path, walk, kinds, 'arm');
  return { label, ...(when ? { when } : {}), from, to: walk.items.length };
}

/** The earlier case with the same condition, if any (the first case that passes wins); records this one. */
function repeatedCase(
  seen: Map<string, string>,
  name: string,
  when: Record<string, unknown>,
): string | undefined {
  const key = stableStringify(when);
  const first = seen.get(key);
  if (first === undefined) seen.set(key, name);
  return first;
}

function branchCondition(
  raw: unknown,
  path: YamlPath,
  walk: StepWalk,
  kinds: readonly string[] | undefined,
): Record<string, unknown> | undefined {
  if (raw === undefined) {
    walk.ctx.error(path.slice(0, -1), 'schema', 'a branch needs an `if` with its conditions', 'key');
    return undefined;
  }
  const when = checkConditions(raw, walk.ctx, kinds, path);
  const never = when && impossibleCondition(raw, path);
  if (never)
    walk.ctx.error(never.path, 'impossible-condition', `this branch can never be taken: ${never.reason}`);
  return when;
}
