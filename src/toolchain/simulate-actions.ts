// What the action runner would do with a run's actions for one contact, without calling anyone:
// assign-first, the guards of action-guards.ts, and one CRM call per action that proceeds (the
// executor's mapping). Pure over actions resolved once per rule.
import { applyActionLocally, guardAction, type ResolvedAction } from '../actions/action-guards';
import type { Channel, Contact } from '../crm/crm-types';
import { resolveAction, resolveMemberId } from '../actions/resolve-action';
import type { RuleAction } from '../rules/rule-types';
import type { SnapshotDirectory } from './snapshot-directory';

export interface PreparedAction {
  action: RuleAction;
  resolved: ResolvedAction;
  /** The member assign-first would assign, resolved. */
  assignFirstId?: string;
  channel?: Channel;
}

export type ActionOutcome = { status: 'sent' } | { status: 'skipped'; reason: string };

export interface SimulatedRun {
  outcomes: ActionOutcome[];
  calls: number;
  contact: Contact;
}

export function simulateActions(prepared: readonly PreparedAction[], start: Contact): SimulatedRun {
  let contact = start;
  let calls = 0;
  const outcomes: ActionOutcome[] = [];
  for (const p of prepared) {
    if (p.assignFirstId && !contact.assigneeId && !contact.isBlocked) {
      calls++;
      contact = { ...contact, assigneeId: p.assignFirstId };
    }
    const verdict = guardAction(p.resolved, contact, { channel: p.channel });
    if (!verdict.proceed) {
      outcomes.push({ status: 'skipped', reason: verdict.reason });
      continue;
    }
    calls++;
    contact = applyActionLocally(p.resolved, contact);
    outcomes.push({ status: 'sent' });
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
    const resolved = await resolveAction(dir, action);
    const assignFirst = 'assignFirst' in action ? action.assignFirst : undefined;
    out.push({
      action,
      resolved,
      ...(assignFirst ? { assignFirstId: await resolveMemberId(dir, assignFirst) } : {}),
      ...(resolved.type === 'open-conversation'
        ? { channel: await directory.resolveChannel(resolved.channelId) }
        : {}),
    });
  }
  return out;
}
