// A contact drawn into a split's control arm (`control: true`) gets no customer message from that
// rule for the rest of the run: not the arm's (it has none), and not the steps after the split.
// Otherwise the control group would get the messages after the split and measure only the
// difference of the arms' own steps. Actions that send nothing (tags, fields, notes, http-request)
// still go: they are the run's bookkeeping (a tag the goal or a segment reads to measure the
// experiment), never seen by the customer, and skipping them would make the control contacts
// differ from the others by more than the message. One decision for the engine's runner (recorded
// `control_arm`), rule tests' simulated clock, forecast and diff. Pure.
import { isCustomerMessage } from '../../policy/customer-messages';
import type { BranchPlan } from './branch-plan';

/**
 * The control arm the run took before action `action`, if any (its label). `decided`: the arms of
 * the branches decided (the engine's so far, an offline replay's whole path: hence `at`).
 */
export function controlArmTaken(
  plan: BranchPlan,
  decided: ReadonlyMap<number, number>,
  action: number,
): string | undefined {
  for (const [branch, arm] of decided) {
    const step = plan.branches?.[branch];
    const taken = step?.arms[arm];
    if (taken?.control && action >= step!.at) return taken.label;
  }
  return undefined;
}

/** Why a run in a control arm does not send action `action` (a customer message of `actionType`), or undefined. */
export function heldByControlArm(
  plan: BranchPlan | null | undefined,
  decided: ReadonlyMap<number, number>,
  action: number,
  actionType: string,
): string | undefined {
  if (!plan?.branches || !isCustomerMessage(actionType)) return undefined;
  const label = controlArmTaken(plan, decided, action);
  return label
    ? `the run took the control ${label.replace(/^arm:/, 'arm ')}: it sends no message`
    : undefined;
}
