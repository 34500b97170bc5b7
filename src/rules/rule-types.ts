// The compiled rule model: what the loader produces from rules/*.yaml and what the
// matcher, the action runner and the segment sweeps consume. Plain types, no Nest.
import type { SegmentFilters } from '../crm/crm-types';
import type { RuleAction } from '../actions/catalogue/catalogue';

/** Actions are declared by the catalogue (src/actions/catalogue), one entry per type. */
export type { RuleAction } from '../actions/catalogue/catalogue';

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
  cooldownMs?: number;
  enabled: boolean;
  priority: number; // higher runs first
  mode: 'live' | 'shadow';
}

/** One problem found while loading rules: printed as `file:line:col: message`. */
export interface RuleProblem {
  file: string;
  line: number;
  col: number;
  message: string;
  severity: 'error' | 'warning';
  /** Stable class, e.g. 'yaml-syntax', 'schema', 'duplicate-id', 'unknown-fact', 'loop'. */
  code: string;
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
}
