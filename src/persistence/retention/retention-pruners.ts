// The statement that prunes each growing table (GROWING_TABLES, retention.ts), through the table's
// own repository. Typed by the list: a table added there without its statement here does not compile.
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../runtime/config/app-config';
import { ConsoleSessionsRepository } from '../../operator/access/console-sessions.repository';
import { ContactJournalRepository } from '../journal/contact-journal.repository';
import { RuleControlsRepository } from '../../runtime/rule-controls/rule-controls.repository';
import { ContactMirrorTombstonesRepository } from '../../pipeline/contact-mirror/contact-mirror-tombstones.repository';
import { InboxEventsRepository } from '../ledger/inbox-events.repository';
import { RunsRepository } from '../ledger/runs.repository';
import { SegmentSweepsRepository } from '../../pipeline/segments/sweeps/segment-sweeps.repository';
import type { PrunedTableName } from './retention';

/** Deletes up to `limit` rows older than `cutoff` that are no longer needed; returns how many went. */
export type Pruner = (cutoff: Date, limit: number) => Promise<number>;

export function retentionPruners(
  db: DataSource,
  sessionLimits: AppConfig['consoleSession'],
): Record<PrunedTableName, Pruner> {
  const runs = new RunsRepository(db);
  const inbox = new InboxEventsRepository(db);
  const journal = new ContactJournalRepository(db);
  const sweeps = new SegmentSweepsRepository(db);
  const tombstones = new ContactMirrorTombstonesRepository(db);
  const ruleControls = new RuleControlsRepository(db);
  const sessions = new ConsoleSessionsRepository(db);
  return {
    runs: (cutoff, n) => runs.deleteFinishedBefore(cutoff, n),
    inbox_events: (cutoff, n) => inbox.deleteProcessedBefore(cutoff, n),
    contact_journal: (cutoff, n) => journal.deleteBefore(cutoff, n),
    segment_sweeps: (cutoff, n) => sweeps.deleteEndedBefore(cutoff, n),
    contact_mirror_tombstones: (cutoff, n) => tombstones.deleteBefore(cutoff, n),
    rule_control_audit: (cutoff, n) => ruleControls.deleteAuditBefore(cutoff, n),
    // Past its idle timeout or its lifetime, whichever comes first: the limits, not one cutoff.
    console_sessions: (_cutoff, n) => sessions.deleteExpired(sessionLimits, n),
  };
}
