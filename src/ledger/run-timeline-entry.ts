// One line of a run's timeline (runs.timeline), as GET /admin/runs/:id shows it. Pure types and
// the state a runner reads back from them.

export type TimelineStep = 'limit' | 'waiting' | 'resumed' | 'cancelled' | 'skipped';

export interface TimelineEntry {
  at: string; // ISO time
  step: TimelineStep;
  /** The action the step is about (0-based), where there is one. */
  action?: number;
  /**
   * Why the run waits: a wait step (its index in the plan's waits), a closed window, a full limit,
   * the messaging policy (quiet hours or a cap; `reason` says which).
   */
  for?: 'wait' | 'window' | 'limit' | 'policy';
  wait?: number;
  until?: string;
  /** Stable reason code (`unless`, `until_event`, `contact_deleted`, `left_segment`, `outside_window`, `rate_limited`, `quiet_hours`, `policy_cap`). */
  reason?: string;
  detail?: string;
}

export interface TimelineProgress {
  /** Indices (in the plan's waits) of the waits the run has passed. */
  waitsPassed: Set<number>;
  limitTaken: boolean;
  /** The wait the run is in now, if the last entry says it waits. */
  waiting?: TimelineEntry;
}

export function timelineProgress(timeline: readonly TimelineEntry[]): TimelineProgress {
  const waitsPassed = new Set<number>();
  let limitTaken = false;
  for (const e of timeline) {
    if (e.step === 'limit') limitTaken = true;
    if (e.step === 'resumed' && e.for === 'wait' && e.wait !== undefined) waitsPassed.add(e.wait);
  }
  const last = timeline[timeline.length - 1];
  return { waitsPassed, limitTaken, ...(last?.step === 'waiting' ? { waiting: last } : {}) };
}
