// One line of a run's timeline (runs.timeline), as GET /admin/runs/:id shows it. Pure types and
// the state a runner reads back from them.
import type { ConditionTrace, FailureFacts } from '../../language/rules/format/rule-types';

/** goal_reached: a later event met the goal after the run succeeded, within its window (a conversion). */
export type TimelineStep =
  'limit' | 'waiting' | 'resumed' | 'cancelled' | 'skipped' | 'branch' | 'goal_reached';

export interface TimelineEntry {
  at: string; // ISO time
  step: TimelineStep;
  /** The action the step is about (0-based), where there is one. */
  action?: number;
  /**
   * Why the run waits: a wait step (its index in the plan's waits), a closed window, a full limit,
   * the messaging policy (quiet hours or a cap; `reason` says which).
   */
  for?: 'wait' | 'window' | 'limit' | 'policy' | 'host';
  wait?: number;
  until?: string;
  /** Stable reason code (`unless`, `until_event`, `contact_deleted`, `left_segment`, `outside_window`, `rate_limited`, `quiet_hours`, `policy_cap`). */
  reason?: string;
  detail?: string;
  /** branch: which branch of the plan (index in its branches), the arm taken and its label. */
  branch?: number;
  arm?: number;
  label?: string;
  /** branch: the explain trace of the conditions it evaluated. */
  trace?: ConditionTrace[];
  /**
   * branch, label on-failure: the failed action's reason and class, read by the arm's conditions
   * and templates as failure.* (kept here so a retry or a restart reads the same).
   */
  failure?: FailureFacts;
  /** resumed by an `until` event (a wait with on-event): the event, for the on-event steps' facts. */
  event?: { type: string; id?: string; data: unknown };
}

export interface TimelineProgress {
  /** Indices (in the plan's waits) of the waits the run has passed. */
  waitsPassed: Set<number>;
  limitTaken: boolean;
  /** The wait the run is in now, if the last entry says it waits. */
  waiting?: TimelineEntry;
  /** Branches decided (index in the plan's branches -> arm index). */
  decided: Map<number, number>;
  /** Waits ended by their `until` event (wait index -> the event). */
  endedByEvent: Map<number, NonNullable<TimelineEntry['event']>>;
  /** The run has slept and resumed at least once (its contact may have changed meanwhile). */
  resumed: boolean;
}

export function timelineProgress(timeline: readonly TimelineEntry[]): TimelineProgress {
  const waitsPassed = new Set<number>();
  let limitTaken = false;
  const decided = new Map<number, number>();
  const endedByEvent = new Map<number, NonNullable<TimelineEntry['event']>>();
  let resumed = false;
  for (const e of timeline) {
    if (e.step === 'limit') limitTaken = true;
    if (e.step === 'resumed') resumed = true;
    if (e.step === 'resumed' && e.for === 'wait' && e.wait !== undefined) {
      waitsPassed.add(e.wait);
      if (e.event) endedByEvent.set(e.wait, e.event);
    }
    if (e.step === 'branch' && e.branch !== undefined && e.arm !== undefined && !decided.has(e.branch))
      decided.set(e.branch, e.arm);
  }
  const last = timeline[timeline.length - 1];
  return {
    waitsPassed,
    limitTaken,
    decided,
    endedByEvent,
    resumed,
    ...(last?.step === 'waiting' ? { waiting: last } : {}),
  };
}

/** The labels of the arms a run took, in order: its path, e.g. ["else"] or ["case:vip", "then"]. */
export function runPath(timeline: readonly TimelineEntry[]): string[] {
  return timeline.filter((e) => e.step === 'branch' && e.label).map((e) => e.label!);
}
