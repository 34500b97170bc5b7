// The shapes of `runs` rows as each reader sees them; the statements are in runs.repository.ts
// and run-views.repository.ts.
import type { TimingPlan } from '../../language/rules/run-gates';
import type { ConditionTrace, RuleAction } from '../../language/rules/rule-types';
import type { RunPriority, RunStatus } from './run.entity';
import type { TimelineEntry } from './run-timeline-entry';

/** A run as the action runner works it: with its trigger's payload (message runs need the message). */
export interface RunRow {
  id: string;
  rule_id: string;
  contact_id: string;
  status: RunStatus;
  correlation_id: string | null;
  contact_snapshot: Record<string, unknown> | null;
  event_payload: { type?: string; data?: unknown } | null;
  /** The original trigger (`event:<id>`) of a replay made without force; null otherwise. */
  replay_of?: string | null;
  priority: RunPriority;
  /** Waits, windows, limit (null for most rules) and what happened so far. */
  timing?: TimingPlan | null;
  timeline?: TimelineEntry[];
}

/** What the action queue needs to (re-)enqueue a run. */
export interface QueueableRun {
  id: string;
  contactId: string;
  correlationId: string | null;
  priority: RunPriority;
  /** Set for a waiting run: its delayed job is due at this time. */
  waitingUntil?: Date | null;
}

export interface RunInsert {
  id: string;
  triggerKey: string;
  inboxEventId: string | null;
  ruleId: string;
  ruleVersion: string;
  ruleSetVersion: string;
  contactId: string;
  status: RunStatus;
  reason: string | null;
  mode: 'live' | 'shadow';
  priority: RunPriority;
  trace: ConditionTrace[];
  actions: RuleAction[];
  contactSnapshot: Record<string, unknown> | null;
  correlationId: string | null;
  timing?: TimingPlan | null;
}

export interface RunFilter {
  rule?: string;
  contact?: string;
  status?: string;
  since?: Date;
  until?: Date;
  limit: number;
}

export interface RunListRow {
  id: string;
  triggerKey: string;
  ruleId: string;
  ruleVersion: string;
  contactId: string;
  status: RunStatus;
  reason: string | null;
  mode: string;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface RuleRunCounts {
  ruleId: string;
  matched: number;
  notMatched: number;
  suppressed: number;
  paused: number;
  failed: number;
  lastRunAt: Date | null;
}

export interface ContactRunRow {
  id: string;
  triggerKey: string;
  ruleId: string;
  ruleVersion: string;
  status: RunStatus;
  reason: string | null;
  mode: string;
  trace: ConditionTrace[];
  createdAt: Date;
}

/** GET /admin/rules/:id/branches: a rule's runs that acted, per arm taken, with goal conversions. */
export interface RuleBranchCounts {
  ruleId: string;
  since: string;
  runs: number;
  goalReached: number;
  /** Per label of an arm taken (then, else, case:<name>, default, arm:<name>, on-event, on-timeout). */
  arms: { label: string; runs: number; goalReached: number }[];
}

/**
 * A rule's runs that acted per time bucket (created_at, `t` in epoch ms): all of them (label null)
 * and per arm label taken, each with how many reached the goal (the console's chart).
 */
export interface RuleBranchBucket {
  t: number;
  label: string | null;
  runs: number;
  goalReached: number;
}
