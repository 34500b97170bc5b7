// The member an `assign` or `assign-first` gives the contact. A round-robin draw advances a
// rotation shared by every process, so it is recorded on the action row (`target.memberId`)
// before the call: a retry of the same action assigns the same member instead of drawing again.
import type { CrmDirectory } from '../../outbound/crm-gateway/crm-directory.service';
import type { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import type { ActionTarget } from '../../language/catalogue/action-result-terms';
import { isRoundRobin, resolveMemberId } from '../../language/catalogue/assign.action';
import type { Exclusion, PoolChoice } from '../../language/assignment/choose-member';
import type { PoolSpec } from '../../language/assignment/pool-spec';
import type { Contact } from '@crm-rules/crm-contract';
import type { CallOptions, CrmWrites } from '../../outbound/crm-gateway/crm-writes';

export async function pickMember(
  directory: CrmDirectory,
  actions: ActionResultsRepository,
  rowId: string,
  target: ActionTarget,
  name: string,
): Promise<string> {
  if (!isRoundRobin(name)) return resolveMemberId(directory, name);
  if (target.memberId) return target.memberId;
  target.memberId = await resolveMemberId(directory, name);
  await actions.setTarget(rowId, target);
  return target.memberId;
}

/**
 * A pool's choice, recorded on the action row with its reasons (`target.pool`, the run's trace)
 * before the call: a retry assigns the member first chosen, with the same explanation.
 */
export async function pickFromPool(
  directory: CrmDirectory,
  actions: ActionResultsRepository,
  rowId: string,
  target: ActionTarget,
  spec: PoolSpec,
  /** The pool's turn counter (poolRotationOf: rule id and action index). */
  rotation: string,
): Promise<PoolChoice> {
  const recorded = target.pool;
  if (recorded && target.memberId) {
    const picked = { id: target.memberId, name: target.memberId, email: '' };
    return {
      picked,
      strategy: spec.strategy,
      eligible: recorded.eligible,
      excluded: recorded.excluded as Exclusion[],
      why: recorded.why,
    };
  }
  const choice = await directory.choosePoolMember(spec, rotation);
  target.pool = { why: choice.why, eligible: choice.eligible, excluded: choice.excluded };
  if (choice.picked) target.memberId = choice.picked.id;
  await actions.setTarget(rowId, target);
  return choice;
}

/**
 * A customer message with `assign-first`: an unassigned, unblocked contact is assigned first (the
 * member picked as for `assign`), so the message's guard sees an assignee. The contact as the CRM
 * answered, or as it was when nothing had to be done.
 */
export async function assignFirstIfNeeded(
  gateway: Pick<CrmWrites, 'updateContact'>,
  contact: Contact,
  assignFirst: string | undefined,
  member: (name: string) => Promise<string>,
  opts: CallOptions,
): Promise<Contact> {
  if (!assignFirst || contact.assigneeId || contact.isBlocked) return contact;
  const memberId = await member(assignFirst);
  return (await gateway.updateContact(contact.id, { assigneeId: memberId }, opts)) ?? contact;
}
