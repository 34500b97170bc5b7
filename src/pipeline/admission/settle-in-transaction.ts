// The settlement of a run at creation (settle-at-creation.ts decides), as createRun calls it in the
// events transaction: one read of what ordering needs and what the guards see, the actions
// resolved from the directory's cache, the pure decision. No Nest: built by EventMatchingService
// with its cached CrmDirectory and handed to createRun, so the ledger depends on no service.
import type { Contact } from '../../crm-contract/crm-types';
import type { CrmDirectory } from '../../crm/crm-directory.service';
import type { Queryable } from '../../persistence/sql/queryable';
import type { NewRun, SettledAction, SettleHook } from './create-run';
import type { RunRow } from '../../persistence/ledger/run-rows';
import type { TimingPlan } from '../../language/rules/run-gates';
import type { RuleAction } from '../../language/rules/rule-types';
import { actionDefinition, type ResolvedAction } from '../../language/catalogue/catalogue';
import { isTemplated } from '../../language/catalogue/action-definition';
import { resolveAction } from '../execution/resolve-action';
import { freshestContact, messageOf } from '../execution/run-steps';
import type { AdmittedRun, BatchSettleHook } from './record-matched-events';
import { settleInBatchOrder, type BatchRead, type BatchRun } from './settle-batch-order';
import { settleExclusion, type ActionSkip, type RunShape } from './settle-at-creation';

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
 * pending, so the later rule's run waits for the runner behind it. A batch of events reads before
 * inserting any run, for all its candidate contacts at once: the runs of the batch itself are
 * accounted for in memory, in batch order (settle-batch-order.ts).
 */
const SETTLEMENT_STATE_SQL = `
  SELECT 'contact' AS kind, c.id,
         NOT EXISTS (SELECT 1 FROM runs
                      WHERE contact_id = c.id AND status IN ('pending', 'running', 'waiting'))
         AND NOT EXISTS (SELECT 1 FROM contact_leases WHERE contact_id = c.id AND expires_at >= now())
           AS quiet,
         (SELECT raw FROM contact_mirror WHERE id = c.id) AS mirrored,
         NULL::jsonb AS event_payload
    FROM unnest($1::text[]) AS c(id)
  UNION ALL
  SELECT 'event', e.id::text, NULL, NULL, e.payload FROM inbox_events e WHERE e.id = ANY($2::uuid[])`;

interface SettlementStateRow {
  kind: 'contact' | 'event';
  id: string;
  quiet: boolean | null;
  mirrored: Contact | null;
  event_payload: RunRow['event_payload'];
}

interface SettlementStates {
  contacts: Map<string, { quiet: boolean; mirrored: Contact | null }>;
  payloads: Map<string, RunRow['event_payload']>;
}

/** The settlement read of one run, or of a batch's candidates: one statement either way. */
async function readSettlementStates(
  tx: Queryable,
  contactIds: readonly string[],
  inboxEventIds: readonly string[],
): Promise<SettlementStates> {
  const rows: SettlementStateRow[] = await tx.query(SETTLEMENT_STATE_SQL, [
    [...new Set(contactIds)],
    [...new Set(inboxEventIds)],
  ]);
  const states: SettlementStates = { contacts: new Map(), payloads: new Map() };
  for (const row of rows) {
    if (row.kind === 'event') states.payloads.set(row.id, row.event_payload);
    else states.contacts.set(row.id, { quiet: row.quiet === true, mirrored: row.mirrored });
  }
  return states;
}

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
 * The hook recordMatchedEvents calls: every candidate's contact and payload in ONE read, then
 * the decision in batch order (settle-batch-order.ts: an earlier run of the contact left pending in
 * the batch holds the later ones back, as a run inserted earlier in the transaction would).
 */
export function settleBatchInTransaction(directory: CrmDirectory): BatchSettleHook {
  return async (tx: Queryable, admitted: readonly AdmittedRun[]) => {
    const shapes = admitted.map((a) => shapeOf(a.run, a.status, a.timing));
    const candidate = shapes.map((shape) => !settleExclusion(shape));
    const states = candidate.includes(true)
      ? await readSettlementStates(
          tx,
          admitted.filter((_, i) => candidate[i]).map((a) => a.run.contactId),
          admitted.flatMap((a, i) => (candidate[i] ? (payloadEventOf(a.run, shapes[i]) ?? []) : [])),
        )
      : undefined;
    const runs: BatchRun[] = await Promise.all(
      admitted.map(async ({ run }, i) => ({
        contactId: run.contactId,
        shape: shapes[i],
        read: states && candidate[i] ? await batchReadOf(directory, run, shapes[i], states) : undefined,
      })),
    );
    return settleInBatchOrder(runs).map((skips, i) => withTypes(skips, shapes[i]));
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
