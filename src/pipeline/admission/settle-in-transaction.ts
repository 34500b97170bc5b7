// The settlement of a run at creation (settle-at-creation.ts decides), as createRun calls it in the
// events transaction: one read of what ordering needs and what the guards see (its statement in
// settlement-state.repository.ts), the actions resolved from the directory's cache, the pure
// decision. No Nest: built by MatchedEventsRecorder with its cached CrmDirectory and handed to
// createRun, so the ledger depends on no service.
import type { Contact } from '@crm-rules/crm-contract';
import type { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import type { Queryable } from '../../persistence/sql/queryable';
import type { NewRun, SettledAction, SettleHook } from './create-run';
import type { RunRow } from '../../persistence/ledger/run-rows';
import {
  SettlementStateRepository,
  type SettlementStates,
} from '../../persistence/ledger/settlement-state.repository';
import type { TimingPlan } from '../../language/rules/gates/run-gates';
import type { RuleAction } from '../../language/rules/format/rule-types';
import { actionDefinition, type ResolvedAction } from '../../language/catalogue/catalogue';
import { isTemplated } from '../../language/catalogue/action-definition';
import { resolveAction } from '../../language/catalogue/resolve-action';
import { freshestContact, messageOf } from '../execution/run-steps';
import type { AdmittedRun, BatchSettleHook } from './record-matched-events';
import { settleInBatchOrder, type BatchRead, type BatchRun } from './settle-batch-order';
import { settleExclusion, type ActionSkip, type RunShape } from './settle-at-creation';

function shapeOf(run: NewRun, status: RunShape['status'], timing: TimingPlan | undefined): RunShape {
  return {
    status,
    priority: run.priority,
    mode: run.evaluation.mode,
    paused: run.paused ?? false,
    timing,
    actions: run.evaluation.actions,
  };
}

/** The event whose payload the run's templated values need, if any (most runs: none). */
function payloadEventOf(run: NewRun, shape: RunShape): string | null {
  return run.inboxEventId && shape.actions.some(hasTemplates) ? run.inboxEventId : null;
}

/** What settlement decides from, for a run not excluded by its shape. */
async function batchReadOf(
  directory: CrmDirectory,
  run: NewRun,
  shape: RunShape,
  states: SettlementStates,
): Promise<BatchRead> {
  const state = states.contacts.get(run.contactId);
  const eventId = payloadEventOf(run, shape);
  const payload = eventId ? (states.payloads.get(eventId) ?? null) : null;
  const contact = freshestContact(run.contactSnapshot as unknown as Contact, state?.mirrored ?? undefined) as
    Contact | null | undefined;
  const quiet = state?.quiet === true;
  return {
    quietInDatabase: quiet,
    contact,
    resolved:
      quiet && contact
        ? await resolveAll(directory, shape.actions, contact, payload)
        : { error: 'not resolved' },
  };
}

function withTypes(skips: ActionSkip[] | undefined, shape: RunShape): SettledAction[] | undefined {
  return skips?.map((s, i) => ({ ...s, type: shape.actions[i].type }));
}

/**
 * What the settlement of these runs reads: the candidates' contacts and the events whose payload
 * their templated values need; null when no run is a candidate (nothing to read).
 */
export function settlementReadOf(
  admitted: readonly AdmittedRun[],
): { contactIds: string[]; eventIds: string[] } | null {
  const shapes = admitted.map((a) => shapeOf(a.run, a.status, a.timing));
  const candidates = admitted.flatMap((a, i) => (settleExclusion(shapes[i]) ? [] : [i]));
  if (candidates.length === 0) return null;
  return {
    contactIds: candidates.map((i) => admitted[i].run.contactId),
    eventIds: candidates.flatMap((i) => payloadEventOf(admitted[i].run, shapes[i]) ?? []),
  };
}

/**
 * The decision in batch order (settle-batch-order.ts: an earlier run of the contact left pending
 * in the batch holds the later ones back, as a run inserted earlier in the transaction would),
 * from a read of settlementReadOf's contacts and events (or of more: a read made for runs
 * admitted later as suppressed sees the same for the rest). Undefined `states`: nothing was read.
 */
export function settleFromStates(directory: CrmDirectory) {
  return async (
    admitted: readonly AdmittedRun[],
    states: SettlementStates | undefined,
  ): Promise<(SettledAction[] | undefined)[]> => {
    const shapes = admitted.map((a) => shapeOf(a.run, a.status, a.timing));
    const runs: BatchRun[] = await Promise.all(
      admitted.map(async ({ run }, i) => ({
        contactId: run.contactId,
        shape: shapes[i],
        read:
          states && !settleExclusion(shapes[i])
            ? await batchReadOf(directory, run, shapes[i], states)
            : undefined,
      })),
    );
    return settleInBatchOrder(runs).map((skips, i) => withTypes(skips, shapes[i]));
  };
}

/**
 * The hook recordMatchedEvents calls: every candidate's contact and payload in ONE read, in the
 * events transaction, then the decision (settleFromStates).
 */
export function settleBatchInTransaction(directory: CrmDirectory): BatchSettleHook {
  const decide = settleFromStates(directory);
  return async (tx: Queryable, admitted: readonly AdmittedRun[]) => {
    const read = settlementReadOf(admitted);
    const states = read
      ? await new SettlementStateRepository(tx).read(read.contactIds, read.eventIds)
      : undefined;
    return decide(admitted, states);
  };
}

function hasTemplates(action: RuleAction): boolean {
  return (actionDefinition(action.type).templates?.(action) ?? []).some((t) => isTemplated(t.text));
}

/**
 * The actions resolved as the runner resolves them (its facts: the contact, the trigger's payload,
 * the message of a message.* trigger), from the directory's fresh cache only: a transaction must
 * not wait on a CRM call. Whatever throws is the runner's to record.
 */
async function resolveAll(
  directory: CrmDirectory,
  actions: readonly RuleAction[],
  contact: Contact,
  payload: RunRow['event_payload'],
): Promise<ResolvedAction[] | { error: string }> {
  const facts = {
    contact,
    event: payload ?? undefined,
    message: messageOf({ event_payload: payload } as RunRow) && payload?.data,
  };
  const cached = directory.cachedOnly();
  try {
    const resolved: ResolvedAction[] = [];
    for (const action of actions) resolved.push(await resolveAction(cached, action, facts));
    return resolved;
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/**
 * The hook createRun calls for one run admission let act (the per-event path): the batch hook on a
 * batch of one; `undefined` leaves it to the runner.
 */
export function settleInTransaction(directory: CrmDirectory): SettleHook {
  const batch = settleBatchInTransaction(directory);
  return async (tx: Queryable, run: NewRun, timing: TimingPlan | undefined) =>
    (await batch(tx, [{ run, status: 'pending', timing }]))[0];
}
