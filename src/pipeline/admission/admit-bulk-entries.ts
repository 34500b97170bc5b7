// Admission's entry point for a bulk run (src/pipeline/bulk-runs): one run per contact of a chunk,
// created in the chunk's transaction with the bulk run's trigger, so a retried chunk finds the runs
// it made (UQ_runs_trigger_rule_contact) and makes none twice. Whether a run may start (once,
// cooldown, at-most, a paused rule) is decided by create-run.ts, as for every run.
import type { EntityManager } from 'typeorm';
import type { RuleDefinition, RuleEvaluation } from '../../language/rules/format/rule-types';
import { createRun, type PendingRun } from './create-run';

export interface BulkAdmission {
  rule: RuleDefinition;
  ruleSetVersion: string;
  rulesCommit?: string;
  /** `bulk:<bulk run id>`. */
  triggerKey: string;
  /** The bulk run's creation: every chunk and retry carries it. */
  triggerAt: Date;
  eventType: string;
  control: { paused: boolean; mode: 'live' | 'shadow' };
  correlationId: string;
}

/** A contact of the chunk, as the mirror has it, with the rule's evaluation on it. */
export interface BulkEntry {
  contactId: string;
  contact: Record<string, unknown>;
  evaluation: RuleEvaluation;
}

export async function admitBulkEntries(
  tx: EntityManager,
  batch: BulkAdmission,
  entries: readonly BulkEntry[],
): Promise<PendingRun[]> {
  const created: PendingRun[] = [];
  for (const entry of entries)
    created.push(
      await createRun(tx, {
        triggerKey: batch.triggerKey,
        triggerAt: batch.triggerAt,
        inboxEventId: null,
        eventType: batch.eventType,
        priority: 'bulk',
        rule: batch.rule,
        ruleSetVersion: batch.ruleSetVersion,
        ...(batch.rulesCommit ? { rulesCommit: batch.rulesCommit } : {}),
        contactId: entry.contactId,
        evaluation: { ...entry.evaluation, mode: batch.control.mode },
        paused: batch.control.paused,
        contactSnapshot: entry.contact,
        correlationId: batch.correlationId,
      }),
    );
  return created;
}
