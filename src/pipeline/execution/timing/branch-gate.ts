// The timeline entry of a branch the runner reaches: the facts it reads (the contact as fresh as
// the runner has it, the awaited event after a wait that ended with one) and the arm taken, from
// the pure decisions of src/language/rules/gates/branch-plan.ts. No I/O: RunTimingService reads and records.
import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { TimelineEntry, TimelineProgress } from '../../../persistence/ledger/run-timeline-entry';
import { decideBranch, splitPoint } from '../../../language/rules/gates/branch-plan';
import { factsAfterWaits } from './run-facts';

export function branchEntry(
  run: RunRow,
  branch: number,
  progress: TimelineProgress,
  contact: Record<string, unknown>,
  now: Date,
): TimelineEntry {
  const plan = run.timing!;
  const step = plan.branches![branch];
  const facts = factsAfterWaits(run, contact, now, step.at);
  const decision = decideBranch(step, {
    facts,
    timezone: plan.timezone,
    endedByEvent: step.wait !== undefined && progress.endedByEvent.has(step.wait),
    point: splitPoint(run.rule_id, plan.ruleVersion ?? '', run.contact_id),
  });
  return {
    at: now.toISOString(),
    step: 'branch',
    action: step.at,
    branch,
    arm: decision.arm,
    label: decision.label,
    ...(decision.trace.length > 0 ? { trace: decision.trace } : {}),
    ...(step.kind === 'split' ? { detail: `arm chosen by hash of rule, version and contact` } : {}),
  };
}
