// The facts of an `on-failure:` arm (failure.reason, failure.class): what the runner records when
// it takes the arm, and which recorded failure an action or branch inside the arm reads. Kept on
// the run's timeline (its `branch` entry) so a retried or restarted run renders the same text.
// Pure: shared by the engine's runner and the offline rule tests.
import type { FailureFacts } from '../format/rule-types';
import type { BranchPlan } from './branch-plan';

/**
 * The reason of a failed action from what its row records: the CRM's error code
 * (`outside_messaging_window`, `unknown_name`, …), or for an http-request refused by its host
 * `http_<status>` (`http_404`).
 */
export function failureReason(
  code: string | null | undefined,
  httpStatus: number | null | undefined,
): string {
  if (code === 'http_status' && typeof httpStatus === 'number') return `http_${httpStatus}`;
  return code ?? 'unknown';
}

/** The timeline entries this reads: a taken on-failure arm carries its failure. */
export interface FailureEntry {
  branch?: number;
  arm?: number;
  failure?: FailureFacts;
}

/**
 * The failure an action at index `action` reads: the on-failure arm it lies in, the innermost when
 * arms nest (the latest taken). Undefined outside every taken arm. `branch`: for a branch met
 * before action `action`, which may close the arm (an `if` whose arms end it), so the arm's end counts.
 */
export function failureFactsAt(
  plan: BranchPlan | null | undefined,
  entries: readonly FailureEntry[] | null | undefined,
  action: number,
  { branch = false } = {},
): FailureFacts | undefined {
  let found: FailureFacts | undefined;
  for (const e of entries ?? []) {
    if (!e.failure || e.branch === undefined || e.arm === undefined) continue;
    const arm = plan?.branches?.[e.branch]?.arms[e.arm];
    if (arm && action >= arm.from && (action < arm.to || (branch && action === arm.to))) found = e.failure;
  }
  return found;
}
