// The member an `assign` or `assign-first` gives the contact. A round-robin draw advances a
// rotation shared by every process, so it is recorded on the action row (`target.memberId`)
// before the call: a retry of the same action assigns the same member instead of drawing again.
import type { CrmDirectory } from '../../crm/crm-directory.service';
import type { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import type { ActionTarget } from '../../persistence/ledger/action-result.entity';
import { isRoundRobin, resolveMemberId } from '../../language/catalogue/assign.action';

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
