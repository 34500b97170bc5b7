// What the action runner would do with a run's actions for one contact, without calling anyone:
// assign-first, the catalogue's guards, and one CRM call per action that proceeds. Pure over actions resolved once per rule.
import { applyActionLocally, guardAction } from '../../language/catalogue/action-guards';
import { resolveMemberId } from '../../language/catalogue/assign.action';
import { actionDefinition, type ResolvedAction } from '../../language/catalogue/catalogue';
import type { Contact } from '@crm-rules/crm-contract';
import { resolveAction } from '../../language/catalogue/resolve-action';
import type { RuleAction } from '../../language/rules/format/rule-types';
import type { SnapshotDirectory } from './snapshot-directory';

export interface PreparedAction {
  action: RuleAction;
  resolved: ResolvedAction;
  /** The member assign-first would assign, resolved. */
  assignFirstId?: string;
}

export type ActionOutcome =
  | { status: 'sent'; deferred?: string }
  | { status: 'skipped'; reason: string }
  /** In an arm of a branch the run did not take (rules with branches, `path`). */
  | { status: 'not_taken' };

/** The messaging policy's say on action `index` once it passed its guards (forecast: OfflinePolicy). */
export type PolicyCheck = (
  action: RuleAction,
  index: number,
) => { skip?: string; defer?: string } | undefined;

export interface SimulatedRun {
  outcomes: ActionOutcome[];
  calls: number;
  contact: Contact;
}

export function simulateActions(
  prepared: readonly PreparedAction[],
  start: Contact,
  policy?: PolicyCheck,
  /** The indexes of the actions on the run's path (replay-path.ts); default every action. */
  path?: readonly number[],
): SimulatedRun {
  let contact = start;
  let calls = 0;
  const outcomes: ActionOutcome[] = [];
  const onPath = path ? new Set(path) : undefined;
  for (const [index, p] of prepared.entries()) {
    if (onPath && !onPath.has(index)) {
      outcomes.push({ status: 'not_taken' });
      continue;
    }
    if (p.assignFirstId && !contact.assigneeId && !contact.isBlocked) {
      calls++;
      contact = { ...contact, assigneeId: p.assignFirstId };
    }
    const verdict = guardAction(p.resolved, contact);
    if (!verdict.proceed) {
      outcomes.push({ status: 'skipped', reason: verdict.reason });
      continue;
    }
    const held = policy?.(p.action, index);
    if (held?.skip) {
      outcomes.push({ status: 'skipped', reason: held.skip });
      continue;
    }
    if (actionDefinition(p.resolved.type).callsCrm !== false) calls++;
    contact = applyActionLocally(p.resolved, contact);
    outcomes.push(held?.defer ? { status: 'sent', deferred: held.defer } : { status: 'sent' });
  }
  return { outcomes, calls, contact };
}

/** Names resolved once for a rule's actions, as the runner resolves them for each run. */
export async function prepareActions(
  actions: readonly RuleAction[],
  directory: SnapshotDirectory,
): Promise<PreparedAction[]> {
  const dir = directory.asDirectory();
  const out: PreparedAction[] = [];
  for (const action of actions) {
    // A dry run: a round-robin member is drawn from the snapshot's rotation, not the engine's.
    const resolved = await resolveAction(dir, action, {}, { dryRun: true });
    const assignFirst = 'assignFirst' in action ? action.assignFirst : undefined;
    out.push({
      action,
      resolved,
      ...(assignFirst ? { assignFirstId: await resolveMemberId(dir, assignFirst) } : {}),
    });
  }
  return out;
}
