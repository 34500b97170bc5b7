// Admission's entry point for a segment sweep: the runs of a batch of contacts entering (or
// leaving) a segment, created in the sweep's transaction, so the batch's memberships and its runs
// commit together. The sweep decides who entered; whether a run may start (once, cooldown,
// at-most, a paused rule) is decided here, by create-run.ts, as for an event's runs.
import type { EntityManager } from 'typeorm';
import { toContact, type MirroredContact } from '../../language/crm-terms/mirrored-contact';
import type { ConditionTrace, RuleAction, RuleDefinition } from '../../language/rules/format/rule-types';
import { createRun, type PendingRun } from './create-run';

/** One sweep batch: the rule, the trigger key of its tick, the actions to run (do: or on-leave:). */
export interface SegmentAdmission {
  rule: RuleDefinition;
  ruleSetVersion: string;
  /** The deployed version the set came from (runs record it). */
  rulesCommit?: string;
  triggerKey: string;
  /** The sweep's tick: every retry of the batch carries it. */
  triggerAt: Date;
  actions: RuleAction[];
  /** Operators' switches at the start of the sweep (console): paused records `paused`, nothing acts. */
  control: { paused: boolean; mode: 'live' | 'shadow' };
  correlationId: string;
}

/** A contact of the batch with the explain trace of its segment filters. */
export interface SegmentEntry {
  contact: MirroredContact;
  trace: ConditionTrace[];
}

/** One run per entry, in order; each created run is answered with its status (pending ones act). */
export async function admitSegmentEntries(
  tx: EntityManager,
  batch: SegmentAdmission,
  entries: readonly SegmentEntry[],
): Promise<PendingRun[]> {
  const created: PendingRun[] = [];
  for (const { contact, trace } of entries) {
    created.push(
      await createRun(tx, {
        triggerKey: batch.triggerKey,
        triggerAt: batch.triggerAt,
        inboxEventId: null,
        eventType: 'sweep',
        priority: 'bulk',
        rule: batch.rule,
        ruleSetVersion: batch.ruleSetVersion,
        ...(batch.rulesCommit ? { rulesCommit: batch.rulesCommit } : {}),
        contactId: contact.id,
        evaluation: {
          ruleId: batch.rule.id,
          ruleVersion: batch.rule.version,
          matched: true,
          trace,
          actions: batch.actions,
          mode: batch.control.mode,
        },
        paused: batch.control.paused,
        contactSnapshot: toContact(contact) as unknown as Record<string, unknown>,
        correlationId: batch.correlationId,
      }),
    );
  }
  return created;
}
