// Payload, job id and ledger trigger keys of a segment sweep. The job id is made of the rule and
// the tick, so every replica's cron adds the same job and BullMQ keeps one; the segment_sweeps
// row (unique on rule and tick) makes a late duplicate a no-op even after the job is gone.

export type SweepReason = 'cron' | 'missed' | 'manual';

export interface SweepJobData {
  ruleId: string;
  /** The scheduled instant of the tick (ISO); relative dates of the filters resolve against it. */
  tickIso: string;
  reason: SweepReason;
}

/** BullMQ job ids may not contain ':'. */
export const sweepJobId = (ruleId: string, tick: Date) =>
  `sweep-${ruleId.replace(/:/g, '_')}-${tick.getTime()}`;

/** Runs of contacts in the segment (entered, or every member with `when: every-run`). */
export const sweepTriggerKey = (ruleId: string, tick: Date) => `sweep:${ruleId}:${tick.toISOString()}`;

/** Runs of the on-leave actions of contacts that left the segment. */
export const sweepLeaveTriggerKey = (ruleId: string, tick: Date) =>
  `sweep-leave:${ruleId}:${tick.toISOString()}`;
