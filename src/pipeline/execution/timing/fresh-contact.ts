// The contact as the CRM has it when a run wakes or reaches a branch: conditions then read the
// present, not the trigger's copy.
import { CrmApiError } from '../../../language/crm-terms/crm-errors';
import type { CrmReads } from '../../../outbound/crm-gateway/crm-reads';
import type { RunRow } from '../../../persistence/ledger/run-rows';

/** The contact as the CRM has it now, at the run's priority; undefined when it was deleted. */
export async function freshContact(
  gateway: CrmReads,
  run: RunRow,
): Promise<Record<string, unknown> | undefined> {
  try {
    const contact = await gateway.getContact(run.contact_id, { priority: run.priority });
    return contact as unknown as Record<string, unknown>;
  } catch (err) {
    if (err instanceof CrmApiError && err.status === 404) return undefined;
    throw err;
  }
}
