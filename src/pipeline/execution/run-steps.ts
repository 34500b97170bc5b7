// Pure: what the action runner does next with an action row of an unfinished run, and which
// contact state a run starts from.
import type { Contact } from '@crm-rules/crm-contract';
import type { ActionStatus } from '../../language/catalogue/action-result-terms';
import type { RunRow } from '../../persistence/ledger/run-rows';
import type { TriggerMessage } from '../../language/catalogue/action-definition';

/**
 * - execute: not attempted yet, or a transient failure left it pending.
 * - reread: left `running` by a crash mid-call: the write may have happened, so the run starts from
 *   a fresh CRM read of the contact (its guards then see the write, `no_change`) before executing.
 * - skip: finished (succeeded or skipped), never repeated.
 * - stop: failed, dead or uncertain (a crash came between recording it and finishing the run): the run ends
 *   with that status, the actions after it are skipped, nothing is called again.
 */
export type ActionStep = 'execute' | 'reread' | 'skip' | 'stop';

const STEPS: Record<ActionStatus, ActionStep> = {
  pending: 'execute',
  running: 'reread',
  succeeded: 'skip',
  skipped: 'skip',
  failed: 'stop',
  dead: 'stop',
  uncertain: 'stop',
};

export function nextStep(status: ActionStatus): ActionStep {
  return STEPS[status];
}

/** Whether a run must start from a fresh CRM read (some action was interrupted mid-call). */
export function needsFreshRead(statuses: readonly ActionStatus[]): boolean {
  return statuses.some((s) => nextStep(s) === 'reread');
}

/** The run's snapshot, unless the mirror holds a newer state of the contact (by updatedAt). */
export function freshestContact(snapshot: Contact, mirrored: Contact | undefined): Contact {
  if (!mirrored) return snapshot;
  return !snapshot?.updatedAt || Date.parse(mirrored.updatedAt) > Date.parse(snapshot.updatedAt)
    ? mirrored
    : snapshot;
}

/** The triggering message of a message.* run (replies and reactions aim at it). */
export function messageOf(run: RunRow): TriggerMessage | undefined {
  const data = run.event_payload?.data as Record<string, unknown> | undefined;
  if (!data || !String(run.event_payload?.type ?? '').startsWith('message.')) return undefined;
  return {
    id: String(data.id),
    conversationId: String(data.conversationId),
    messagePlatformId: String(data.messagePlatformId ?? data.id),
  };
}
