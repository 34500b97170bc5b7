// What executing a run starts with, in one round trip: its `running` mark, its action rows and the
// mirror's copy of its contact, side by side (not three round trips). The copy goes unused when the
// contact is read afresh. A lost lease fails each as a rejection (the ledger is fenced).
import type { Contact } from '@crm-rules/crm-contract';
import type { ActionRow } from '../../persistence/ledger/action-results.repository';
import type { Queryable } from '../../persistence/sql/queryable';
import type { RunRepositories } from './run-repositories';

export interface RunStart {
  actions: ActionRow[];
  mirrored: Contact | undefined;
}

/** The mirror's read of one contact over the fenced connection (ContactMirrorService.find). */
export type MirrorRead = (contactId: string, db: Queryable) => Promise<Contact | undefined>;

export async function startRun(
  ledger: RunRepositories,
  readMirror: MirrorRead,
  run: { id: string; contactId: string },
): Promise<RunStart> {
  const [, actions, mirrored] = await Promise.all([
    ledger.runs.markRunning(run.id),
    ledger.actions.ofRun(run.id),
    readMirror(run.contactId, ledger.conn),
  ]);
  return { actions, mirrored };
}
