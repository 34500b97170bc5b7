// Collects the problems of one rule, each positioned through the rule's Locator.
import type { RuleProblemCode } from './problem-codes';
import type { RuleProblem } from './rule-types';
import type { StepLists } from './step-lists';
import type { Locator, YamlPath } from './yaml-source';

export class ProblemCollector {
  private count = 0;
  /** A context for another file (a called step list): its errors count for the rule too. */
  private parent?: ProblemCollector;
  /** How many `on-failure:` arms the walk is inside: `failure.*` may be read only when > 0. */
  failureArms = 0;

  /** `calendars`: the named calendars of the messaging policy (policy.yaml), for `window: { calendar }`. */
  constructor(
    readonly at: Locator,
    private readonly problems: RuleProblem[],
    readonly calendars: Readonly<Record<string, readonly string[]>> = {},
    /** Named step lists (rules/steps/*.yaml) that `call:` expands. */
    readonly stepLists: StepLists = new Map(),
  ) {}

  /** The same rule's problems, positioned in another document (a step list's file). */
  within(at: Locator): ProblemCollector {
    const child = new ProblemCollector(at, this.problems, this.calendars, this.stepLists);
    child.parent = this;
    child.failureArms = this.failureArms;
    return child;
  }

  error(path: YamlPath, code: RuleProblemCode, message: string, target: 'key' | 'value' = 'value'): void {
    this.count++;
    for (let up = this.parent; up; up = up.parent) up.count++;
    this.problems.push({ ...this.at.pos(path, target), message, severity: 'error', code });
  }

  warn(path: YamlPath, code: RuleProblemCode, message: string, target: 'key' | 'value' = 'value'): void {
    this.problems.push({ ...this.at.pos(path, target), message, severity: 'warning', code });
  }

  /** Errors reported so far: lets a check tell whether its own part was clean. */
  errorCount(): number {
    return this.count;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
