// The timeline entry of a branch the runner reaches: the facts it reads (the contact as fresh as
// the runner has it, the awaited event after a wait that ended with one) and the arm taken, from
// the pure decisions of src/language/rules/gates/branch-plan.ts. No I/O: RunTimingService reads and records.
import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { TimelineEntry, TimelineProgress } from '../../../persistence/ledger/run-timeline-entry';
import type { ActionRow } from '../../../persistence/ledger/action-results.repository';
import { decideBranch, failureBranchOf, splitPoint } from '../../../language/rules/gates/branch-plan';
import { failureReason } from '../../../language/rules/gates/failure-facts';
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

/**
 * Action `row` ended failed or dead: whether the run goes on into the action's `on-failure:` arm,
 * and the timeline entry that records it taken (none when there is no such arm, or when the
 * timeline already says which arm was taken: a retried job decides as the first attempt did).
 */
export function failureArmStep(
  run: RunRow,
  progress: TimelineProgress,
  row: Pick<ActionRow, 'action_index' | 'error_code' | 'http_status'>,
  outcome: 'failed' | 'dead',
  now: Date,
): { taken: boolean; entry?: TimelineEntry } {
  const action = row.action_index;
  const branch = failureBranchOf(run.timing ?? undefined, action);
  if (branch === undefined) return { taken: false };
  const decided = progress.decided.get(branch);
  if (decided !== undefined)
    return { taken: run.timing!.branches![branch].arms[decided].label === 'on-failure' };
  const reason = failureReason(row.error_code, row.http_status);
  return {
    taken: true,
    entry: {
      at: now.toISOString(),
      step: 'branch',
      action: action + 1,
      branch,
      arm: 0,
      label: 'on-failure',
      reason: outcome,
      detail: `action ${action + 1} ended ${outcome}: ${reason}`,
      failure: { reason, class: outcome },
    },
  };
}
