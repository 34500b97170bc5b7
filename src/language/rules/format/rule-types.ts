// The compiled rule model: what the loader produces from rules/*.yaml and what the
// matcher, the action runner and the segment sweeps consume. Plain types, no Nest.
import type { RuleProblemCode } from './problem-codes';
import type { SegmentFilters } from '@crm-rules/crm-contract';
import type { RuleAction } from '../../catalogue/catalogue';
import type { TimeWindow } from '../gates/time-window';

/** Actions are declared by the catalogue (src/language/catalogue), one entry per type. */
export type { RuleAction } from '../../catalogue/catalogue';

/** Where a thing was written, for `file:line:col` messages and explain output. */
export interface SourcePosition {
  file: string;
  line: number; // 1-based
  col: number; // 1-based
}

export interface EventTrigger {
  kind: 'event';
  events: string[]; // e.g. ['contact.created']
}

export interface ScheduleTrigger {
  kind: 'schedule';
  cron: string;
  timezone?: string;
  segment: {
    name?: string;
    /** Filters as written: dates may be relative (`now-30d`), resolved at each sweep. */
    filters: SegmentFilters & Record<string, unknown>;
    sync?: boolean;
  };
  when: 'entered' | 'every-run';
  onLeave: RuleAction[];
}

export type RuleTrigger = EventTrigger | ScheduleTrigger;

export interface RuleDefinition {
  id: string;
  description?: string;
  source: SourcePosition;
  /** Content hash of this rule's normalised definition. */
  version: string;
  trigger: RuleTrigger;
  /** IANA time zone of calendar facts (`now.hour`), `daysSince` and windows; undefined = UTC. */
  timezone?: string;
  /** json-rules-engine TopLevelCondition (all/any/not); undefined = always matches. */
  conditions?: Record<string, unknown>;
  actions: RuleAction[];
  once?: 'per-contact';
  /** `backfill: true`: activating a version prepares a bulk run for the contacts that already match. */
  backfill?: boolean;
  /** At most this many runs per contact, ever (`once` is at-most 1). */
  atMost?: number;
  cooldownMs?: number;
  /** Every action of the run happens inside this window. */
  window?: TimeWindow;
  /** Windows of single actions (`- { send-message: Hi, window: {...} }`), by action index. */
  actionWindows?: { action: number; window: TimeWindow }[];
  waits?: WaitStep[];
  /** Index in `do` of each action, when waits make it differ from the action index (positions). */
  actionSteps?: number[];
  /** Rules with branches: where each action is written, relative to the rule (['do', 2, 'then', 0]). */
  actionPaths?: (string | number)[][];
  /** Per action index, where it came from when not written in the rule itself: a `call:`, a `repeat`. */
  actionOrigins?: (ActionOrigin | undefined)[];
  /** if / switch / split / wait outcomes in `do`, in written order (src/language/rules/gates/branch-plan.ts). */
  branches?: BranchStep[];
  /**
   * `goal:` (or `goal: { if, within }`): met by a later event about the contact while its run waits,
   * the run ends (goal_reached); met after the run succeeded, within the goal window, a conversion.
   */
  goal?: Record<string, unknown>;
  /** `goal: { within: 3d }`: how long after a run succeeded the goal still converts (absent: the default). */
  goalWithinMs?: number;
  limit?: RuleLimit;
  enabled: boolean;
  priority: number; // higher runs first
  mode: 'live' | 'shadow';
}

/** An action expanded at load: from a named step list (`call:`) and/or a repetition of a `repeat`. */
export interface ActionOrigin {
  /** The step list called (innermost) and where the step is written in its file. */
  call?: { name: string; at: SourcePosition };
  /** The repetition of the innermost `repeat` (1 = the first time), of its `max`. */
  repeat?: { n: number; max: number };
}

/** `- wait: 2h` in `do`: the run pauses before action `beforeAction`, durably (a delayed job). */
export interface WaitStep {
  beforeAction: number;
  ms: number;
  /** Conditions re-evaluated on fresh contact state when the wait ends: true cancels the rest of the run. */
  unless?: Record<string, unknown>;
  /** A later event for the same contact that cancels the wait ("no reply within"). */
  until?: WaitUntil;
  /** The wait has `on-event` / `on-timeout`: an `until` event resumes the run instead of cancelling it. */
  outcomes?: true;
}

/**
 * A branch of `do`, decided when the run reaches action `at`: `if` (then / else), `switch` (cases,
 * default), `split` (weighted arms), `outcome` (how wait `wait` ended: on-event / on-timeout) or
 * `failure` (whether the action before it ended failed or dead: on-failure / succeeded).
 * Its arms cover the action range [at, end); the actions of the arms not taken are skipped.
 */
export interface BranchStep {
  /** failure: `on-failure:` of action at - 1; arms on-failure (taken when it ends failed or dead) and succeeded (empty). */
  /** repeat: a repetition of a `repeat` block (one arm, `repeat:<n>` or `exhausted`, always taken). */
  kind: 'if' | 'switch' | 'split' | 'outcome' | 'failure' | 'repeat';
  at: number;
  end: number;
  /** Waits written before the branch: a wait and a branch before the same action meet in written order. */
  afterWaits: number;
  /** outcome: the wait (index in waits) whose ending decides. */
  wait?: number;
  /** Where it is written, relative to the rule (['do', 1] or ['do', 1, 'else', 0]). */
  source: (string | number)[];
  arms: BranchArm[];
  /**
   * failure of a `call:`: the called list's actions [from, to); any of them ending failed or dead
   * takes on-failure, and the list's actions after it are skipped. Without it: action at - 1 alone.
   */
  covers?: { from: number; to: number };
}

export interface BranchArm {
  /** On the run's path: then, else, case:<name>, default, arm:<name>, on-event, on-timeout, on-failure, succeeded. */
  label: string;
  /** if / case: taken when these pass (the first arm that passes wins); none = else / default. */
  when?: Record<string, unknown>;
  /** split: the arm's weight. */
  weight?: number;
  /** split: a control arm (`control: true`), which sends nothing: the baseline of the experiment readout. */
  control?: true;
  /** Its actions: [from, to) (from === to: an arm without actions, e.g. a missing else). */
  from: number;
  to: number;
}

export interface WaitUntil {
  events: string[];
  /** Conditions on the later event's facts (message, contact, event). */
  where?: Record<string, unknown>;
  /** Only an event in the conversation of the triggering message counts. */
  sameConversation: boolean;
}

/** `limit: { max: 200, per: 1h, over: queue }`: runs of the rule per period, across all processes. */
export interface RuleLimit {
  max: number;
  perMs: number;
  /** Beyond max: wait for the next period, or skip with a recorded reason. */
  over: 'queue' | 'skip';
}

/** One problem found while loading rules: printed as `file:line:col: message`. */
export interface RuleProblem {
  file: string;
  line: number;
  col: number;
  message: string;
  severity: 'error' | 'warning';
  /** Stable class, e.g. 'yaml-syntax', 'schema', 'duplicate-id', 'unknown-fact', 'loop'. */
  code: RuleProblemCode;
}

/** One leaf condition as evaluated: the explain trace. */
export interface ConditionTrace {
  fact: string;
  path?: string;
  operator: string;
  expected: unknown;
  actual: unknown;
  result: boolean;
  /** Nesting for display, e.g. 'all[0].any[1]'. */
  at: string;
  /** `daysSince` / `hoursSince` / `minutesSince` leaves: the unit counted from the date at path. */
  since?: 'days' | 'hours' | 'minutes';
  /** Change operators: the value at the same path before the event (the `previous` fact). */
  before?: unknown;
  /** Extra explanation, e.g. the cutoff of olderThan/newerThan, or why an operator failed. */
  note?: string;
}

export interface RuleEvaluation {
  ruleId: string;
  ruleVersion: string;
  matched: boolean;
  trace: ConditionTrace[];
  actions: RuleAction[];
  mode: 'live' | 'shadow';
}

/** Facts given to an evaluation. `contact` is the freshest state the engine has. */
export interface EvaluationFacts {
  event: { id?: string; type: string; createdAt?: string; data: unknown };
  contact?: Record<string, unknown>;
  message?: Record<string, unknown>;
  now: Date;
  /** Inside an on-failure arm: the failed action's reason and class (src/language/rules/gates/failure-facts.ts). */
  failure?: FailureFacts;
  /** The contact before this event: read only when a rule listening to the event uses a change operator. */
  previous?: PreviousState;
  /** Stage and member names of change operators resolved to ids (conditions compare ids). */
  names?: NameResolver;
}

/** `failure.*` in an on-failure arm: the failed action's recorded code and whether it was refused or ran out of retries. */
export interface FailureFacts {
  reason: string;
  class: 'failed' | 'dead';
}

/** What the engine knew of the contact before this event (src/pipeline/contact-mirror, the mirror). */
export interface PreviousState {
  /** The contact as the mirror had it; undefined when there is no previous state (`missing` says why). */
  contact?: Record<string, unknown>;
  /** Why there is no previous state, e.g. `first sight of the contact`. */
  missing?: string;
}

/** A stage or member name (or uuid) to its uuid; undefined when unknown. */
export type NameResolver = (kind: 'stage' | 'member', nameOrId: string) => string | undefined;
