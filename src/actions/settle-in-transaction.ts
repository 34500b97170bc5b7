// The settlement of a run at creation (settle-at-creation.ts decides), as createRun calls it in the
// events transaction: one read of what ordering needs and what the guards see, the actions
// resolved from the directory's cache, the pure decision. No Nest: built by EventMatchingService
// with its cached CrmDirectory and handed to createRun, so the ledger depends on no service.
import type { Contact } from '../crm/crm-types';
import type { CrmDirectory } from '../crm/crm-directory.service';
import type { Queryable } from '../db/queryable';
import type { NewRun, SettleHook } from '../ledger/create-run';
import type { RunRow } from '../ledger/run-rows';
import type { TimingPlan } from '../rules/run-gates';
import type { RuleAction } from '../rules/rule-types';
import { actionDefinition, type ResolvedAction } from './catalogue/catalogue';
import { isTemplated } from './catalogue/action-definition';
import { resolveAction } from './resolve-action';
import { freshestContact, messageOf } from './run-steps';
import { decideSettlement, settleExclusion, type RunShape, type Settlement } from './settle-at-creation';

/**
 * One statement over runs, contact_leases, contact_mirror (and, for templated values, the event's
 * inbox row). It is the settlement's own read, so it lives beside its reader rather than in one
 * table's repository: its point is that the three answers come from ONE snapshot (one statement
 * under READ COMMITTED), which three repository calls could not give.
 *
 * Why settling on it is serializable with the runner: the settlement writes nothing to the CRM or
 * the mirror, only its own run, finished. A run of this contact that this snapshot cannot see
 * (another event's transaction, not yet committed) is ordered after this one: its runner starts
 * after that commit, takes the lease and reads the mirror / CRM state, which this settlement did
 * not change, so it acts exactly as if this run had been executed first, which is how two events'
 * runs are ordered today (by commit: the runner only works runs it can see). Every run this
 * snapshot can see must have finished, and no job may hold the lease: a runner that wrote the
 * CRM updates the mirror before it finishes its run and releases its lease, so a quiet contact's
 * mirror row already holds what earlier runs wrote (as the runner's own next run would read it).
 * A run inserted earlier in this same transaction (an earlier rule of the same event) is seen as
 * pending, so the later rule's run waits for the runner behind it.
 */
const SETTLEMENT_STATE_SQL = `
  SELECT NOT EXISTS (SELECT 1 FROM runs
                      WHERE contact_id = $1 AND status IN ('pending', 'running', 'waiting'))
         AND NOT EXISTS (SELECT 1 FROM contact_leases WHERE contact_id = $1 AND expires_at >= now())
           AS quiet,
         (SELECT raw FROM contact_mirror WHERE id = $1) AS mirrored,
         (SELECT payload FROM inbox_events WHERE id = $2::uuid) AS event_payload`;

interface SettlementStateRow {
  quiet: boolean;
  mirrored: Contact | null;
  event_payload: RunRow['event_payload'];
}

/** The hook createRun calls for a run admission let act; `undefined` leaves it to the runner. */
export function settleInTransaction(directory: CrmDirectory): SettleHook {
  return async (tx: Queryable, run: NewRun, timing: TimingPlan | undefined) => {
    const shape: RunShape = {
      status: 'pending',
      priority: run.priority,
      mode: run.evaluation.mode,
      paused: run.paused ?? false,
      timing,
      actions: run.evaluation.actions,
    };
    // Most acting runs are ruled out by their shape: no statement for them.
    if (settleExclusion(shape)) return undefined;
    const templated = shape.actions.some(hasTemplates);
    const [row]: SettlementStateRow[] = await tx.query(SETTLEMENT_STATE_SQL, [
      run.contactId,
      templated ? run.inboxEventId : null,
    ]);
    const contact = freshestContact(run.contactSnapshot as unknown as Contact, row?.mirrored ?? undefined) as
      Contact | null | undefined;
    const settlement: Settlement = decideSettlement(shape, {
      contactQuiet: row?.quiet === true,
      contact,
      resolved:
        row?.quiet && contact
          ? await resolveAll(directory, shape.actions, contact, row.event_payload)
          : { error: 'not resolved' },
    });
    if (!settlement.settle) return undefined;
    return settlement.skips.map((s, i) => ({ ...s, type: shape.actions[i].type }));
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
