// The CRM calls of one action attempt, for the contact's timeline (contact_journal `crm.call`):
// how many the gateway granted, how long they waited for budget, and how the attempt ended.
import type { ContactJournalRepository } from '../../persistence/journal/contact-journal.repository';
import type { ActionRow } from '../../persistence/ledger/action-results.repository';
import type { RunRow } from '../../persistence/ledger/run-rows';

export class CrmCallTally {
  private count = 0;
  private waitedMs = 0;

  constructor(
    private readonly journal: ContactJournalRepository,
    private readonly run: RunRow,
    private readonly row: ActionRow,
    private readonly operation: string,
    /** When the attempt began (Date.now()): the note's durationMs counts from it. */
    private readonly started: number,
  ) {}

  /** The gateway's callback for each call granted after `ms` of waiting for budget. */
  readonly onGranted = (ms: number): void => {
    this.count++;
    this.waitedMs += ms;
  };

  /** Notes the attempt's calls (none made: nothing to note). */
  note(outcome: string, requestId?: string | null): void {
    if (this.count === 0) return;
    this.journal.note({
      contactId: this.run.contact_id,
      kind: 'crm.call',
      detail: {
        runId: this.run.id,
        index: this.row.action_index,
        operation: this.operation,
        priority: this.run.priority,
        calls: this.count,
        waitedMs: this.waitedMs,
        durationMs: Date.now() - this.started,
        outcome,
        requestId,
      },
    });
  }
}
