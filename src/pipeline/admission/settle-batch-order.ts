// Pure: the settlement of a batch of new runs (several events recorded in one transaction), in
// batch order. One read gives each contact's state as the database holds it; what that read cannot
// see is the batch itself: a run of the same contact earlier in the batch that stays `pending` is
// ahead of this one (the runner works a contact's runs in order), so this one is not quiet, exactly
// as the per-event path sees a run its transaction inserted before. An earlier run that is settled,
// suppressed, shadow or paused changed nothing and is finished: it does not block. No Nest.
import type { Contact } from '@crm-rules/crm-contract';
import type { ResolvedAction } from '../../language/catalogue/catalogue';
import { decideSettlement, type ActionSkip, type RunShape } from './settle-at-creation';

/** What the batch read for a candidate run (its shape not excluded), its quiet still per contact. */
export interface BatchRead {
  /** No unfinished run and no lease on the contact in the database's snapshot. */
  quietInDatabase: boolean;
  contact: Contact | null | undefined;
  resolved: readonly ResolvedAction[] | { error: string };
}

export interface BatchRun {
  contactId: string;
  shape: RunShape;
  /** Undefined when the shape rules settlement out (settleExclusion): nothing was read for it. */
  read?: BatchRead;
}

/** Whether the run, unless settled, is left `pending` for the runner: admitted, live, not paused. */
export function staysPendingUnlessSettled(shape: RunShape): boolean {
  return shape.status === 'pending' && !shape.paused && shape.mode !== 'shadow';
}

/** Each run's skips when it is settled at creation, undefined when it is not; in batch order. */
export function settleInBatchOrder(runs: readonly BatchRun[]): (ActionSkip[] | undefined)[] {
  const pendingContacts = new Set<string>();
  return runs.map((run) => {
    if (!staysPendingUnlessSettled(run.shape)) return undefined;
    const settlement = run.read
      ? decideSettlement(run.shape, {
          contactQuiet: run.read.quietInDatabase && !pendingContacts.has(run.contactId),
          contact: run.read.contact,
          resolved: run.read.resolved,
        })
      : undefined;
    if (settlement?.settle) return settlement.skips;
    pendingContacts.add(run.contactId);
    return undefined;
  });
}
