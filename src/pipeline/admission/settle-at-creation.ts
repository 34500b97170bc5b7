// Pure: whether a new run can be decided in the transaction that creates it, because the runner
// would only skip its actions. A guarded no-op (`add-tag: vip` on a contact that has `vip`) costs
// the runner about ten statements (lease, unfinished runs, `running`, rows, mirror, skip, finish,
// release) to conclude what the catalogue guards decide from the contact alone; settled at
// creation it costs one read and the same inserts, like a shadow run. Anything the runner does
// besides guarding (a call, a draw, a gate, a failure to record) keeps the runner's path. No Nest.
import type { Contact } from '@crm-rules/crm-contract';
import type { RunPriority, RunStatus } from '../../persistence/ledger/run.entity';
import type { TimingPlan } from '../../language/rules/gates/run-gates';
import type { RuleAction } from '../../language/rules/format/rule-types';
import { guardAction } from '../../language/catalogue/action-guards';
import { isRoundRobin } from '../../language/catalogue/assign.action';
import type { SkipReason } from '../../language/catalogue/action-definition';
import { actionDefinition, isActionType, type ResolvedAction } from '../../language/catalogue/catalogue';

/** What the run is, as createRun knows it before anything is read. */
export interface RunShape {
  /** admission's answer (loop protection, once, cooldown, at-most): only `pending` may act. */
  status: RunStatus;
  priority: RunPriority;
  mode: 'live' | 'shadow';
  paused: boolean;
  /** `timingPlanOf(rule)` as stored on the run: waits, windows, limit. */
  timing: TimingPlan | undefined;
  actions: readonly RuleAction[];
}

/** What the settlement read and resolved, in the run's transaction. */
export interface SettleState {
  /** No unfinished run (pending, running, waiting) and no unexpired lease on the contact. */
  contactQuiet: boolean;
  /** freshestContact(snapshot, mirror row): the state the runner's guards would start from. */
  contact: Contact | null | undefined;
  /** The actions resolved as the runner resolves them, or the error resolution threw. */
  resolved: readonly ResolvedAction[] | { error: string };
}

export interface ActionSkip {
  reason: SkipReason;
  detail: string;
}

export type Settlement = { settle: true; skips: ActionSkip[] } | { settle: false; why: string };

const no = (why: string): Settlement => ({ settle: false, why });

/**
 * What rules settlement out before anything is read (so the read is not spent on such runs).
 * Each exclusion is one the runner handles and a settlement must not pretend to.
 */
export function settleExclusion(run: RunShape): string | undefined {
  // Suppressed by loop protection, once, cooldown or at-most: admission decided it, nothing acts.
  if (run.status !== 'pending') return `admission recorded it ${run.status}`;
  // An operator paused the rule: createRun records `suppressed / paused`.
  if (run.paused) return 'the rule is paused';
  // Shadow (or forced shadow): createRun already records it succeeded with `shadow_mode` skips.
  if (run.mode === 'shadow') return 'shadow mode is recorded by createRun';
  // Sweeps (bulk): their runs go to the actions queue, counted in the sweep's progress.
  if (run.priority !== 'interactive') return 'bulk runs keep the sweep path';
  // Waits, windows and limits are gates the runner meets before each action (waiting state, wake
  // jobs, Redis limit counters): a guard decided at creation would jump them.
  if (run.timing) return 'the rule has waits, windows or a limit';
  // Nothing to refuse: not a guarded no-op (and not worth a special case).
  if (run.actions.length === 0) return 'the run has no action';
  for (const [i, action] of run.actions.entries()) {
    const why = actionExclusion(action);
    if (why) return `action ${i} (${action.type}): ${why}`;
  }
  return undefined;
}

function actionExclusion(action: RuleAction): string | undefined {
  // A type no longer in the catalogue: the runner records the failure.
  if (!isActionType(action.type)) return 'not in the catalogue';
  // Customer-facing writes (send-message, send-template, react): at-most-once, with their own
  // journal of calls and unclear outcomes; they stay in one place, the runner.
  if (actionDefinition(action.type).messaging) return 'a messaging action';
  // assign-first writes the assignee (a CRM call) before the guard looks at the contact.
  if ('assignFirst' in action && action.assignFirst) return 'assign-first calls the CRM before the guard';
  // A round-robin draw is recorded on the action row before the call (member-pick.ts): resolving
  // it here would draw a member the runner never uses.
  if (action.type === 'assign' && isRoundRobin(action.member)) return 'a round-robin draw';
  return undefined;
}

/**
 * Settled when EVERY action is refused by its catalogue guard, guarded in sequence as the runner
 * does (`applyActionLocally` after an action that proceeds; a refusal changes nothing, so the
 * contact stays the same from one refused action to the next). One action that would proceed
 * means a CRM call: the whole run goes to the runner, in order.
 */
export function decideSettlement(run: RunShape, state: SettleState): Settlement {
  const excluded = settleExclusion(run);
  if (excluded) return no(excluded);
  // Per-contact order: an earlier run still to finish (or a job working the contact) may change
  // what the guard sees; the runner takes them in order.
  if (!state.contactQuiet) return no('the contact has an unfinished run or a lease');
  // No state to guard against: the runner reads (or fails) as it does today.
  if (!state.contact) return no('no contact state');
  // A name the directory does not know (or has not cached): the runner resolves it and records
  // the failure (unknown_name) or the success as today.
  if ('error' in state.resolved) return no(`resolution failed: ${state.resolved.error}`);
  const resolved = state.resolved;
  if (resolved.length !== run.actions.length) return no('resolution does not match the actions');
  const skips: ActionSkip[] = [];
  for (const [i, action] of resolved.entries()) {
    const verdict = guardAction(action, state.contact);
    // The guard lets the call through: there is a write to make.
    if (verdict.proceed) return no(`action ${i} (${action.type}) would call the CRM`);
    skips.push({ reason: verdict.reason, detail: verdict.detail });
  }
  return { settle: true, skips };
}
