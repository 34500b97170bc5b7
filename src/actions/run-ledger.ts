// Writes runs and their action rows. Idempotency lives in the unique constraints:
// (trigger, rule, contact) for runs, (rule, contact) for once/cooldown enrollments.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { RuleDefinition, RuleEvaluation } from '../rules/rule-types';
import type { RunStatus } from '../ledger/run.entity';

/** Events the engine's own writes cause do not re-trigger the same rule within this window. */
export const OWN_WRITE_LOOP_WINDOW_MS = 120_000;

export interface NewRun {
  triggerKey: string;
  inboxEventId: string | null;
  eventType: string;
  replay?: boolean;
  rule: RuleDefinition;
  ruleSetVersion: string;
  contactId: string;
  evaluation: RuleEvaluation;
  contactSnapshot: Record<string, unknown> | null;
  correlationId: string | null;
}

export interface PendingRun {
  id: string;
  contactId: string;
  status: RunStatus;
}

export async function createRun(tx: EntityManager, input: NewRun): Promise<PendingRun> {
  const id = randomUUID();
  const { status, reason } = input.evaluation.matched
    ? await admission(tx, input, id)
    : { status: 'not_matched' as RunStatus, reason: null };
  const shadow = input.evaluation.mode === 'shadow';
  const finalStatus: RunStatus = status === 'pending' && shadow ? 'succeeded' : status;
  const inserted: { id: string }[] = await tx.query(
    `INSERT INTO runs (id, trigger_key, inbox_event_id, rule_id, rule_version, rule_set_version, contact_id,
                       status, reason, mode, trace, actions, contact_snapshot, correlation_id, finished_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14, CASE WHEN $8 IN ('pending','running') THEN NULL ELSE now() END)
     ON CONFLICT (trigger_key, rule_id, contact_id) DO NOTHING RETURNING id`,
    [
      id,
      input.triggerKey,
      input.inboxEventId,
      input.rule.id,
      input.rule.version,
      input.ruleSetVersion,
      input.contactId,
      finalStatus,
      reason,
      input.evaluation.mode,
      JSON.stringify(input.evaluation.trace),
      JSON.stringify(input.evaluation.actions),
      input.contactSnapshot ? JSON.stringify(input.contactSnapshot) : null,
      input.correlationId,
    ],
  );
  if (inserted.length === 0) return { id, contactId: input.contactId, status: 'suppressed' }; // same trigger seen before
  if (status === 'pending') {
    const actions = input.evaluation.actions;
    for (let i = 0; i < actions.length; i++) {
      await tx.query(
        `INSERT INTO action_results (run_id, action_index, action, status, reason, finished_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          id,
          i,
          JSON.stringify(actions[i]),
          shadow ? 'skipped' : 'pending',
          shadow ? 'shadow_mode' : null,
          shadow ? new Date() : null,
        ],
      );
    }
  }
  return { id, contactId: input.contactId, status: finalStatus };
}

/** Whether a matched rule may act now: loop protection, then once / cooldown. */
async function admission(
  tx: EntityManager,
  input: NewRun,
  runId: string,
): Promise<{ status: RunStatus; reason: string | null }> {
  if (
    input.eventType === 'contact.updated' &&
    !input.replay &&
    (await recentOwnWrite(tx, input.rule.id, input.contactId))
  ) {
    return { status: 'suppressed', reason: 'own_write_loop' };
  }
  const { once, cooldownMs } = input.rule;
  if (once === 'per-contact') {
    const rows = await tx.query(
      `INSERT INTO enrollments (rule_id, contact_id, last_run_id, last_fired_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (rule_id, contact_id) DO NOTHING RETURNING rule_id`,
      [input.rule.id, input.contactId, runId],
    );
    return rows.length
      ? { status: 'pending', reason: null }
      : { status: 'suppressed', reason: 'once_per_contact' };
  }
  if (cooldownMs) {
    // The WHERE on the upsert makes the check and the claim one atomic statement.
    const rows = await tx.query(
      `INSERT INTO enrollments (rule_id, contact_id, last_run_id, last_fired_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (rule_id, contact_id) DO UPDATE
         SET last_run_id = EXCLUDED.last_run_id, last_fired_at = now(), fire_count = enrollments.fire_count + 1
         WHERE enrollments.last_fired_at <= now() - ($4::bigint * interval '1 millisecond')
       RETURNING rule_id`,
      [input.rule.id, input.contactId, runId, cooldownMs],
    );
    return rows.length ? { status: 'pending', reason: null } : { status: 'suppressed', reason: 'cooldown' };
  }
  return { status: 'pending', reason: null };
}

async function recentOwnWrite(tx: EntityManager, ruleId: string, contactId: string): Promise<boolean> {
  const rows = await tx.query(
    `SELECT 1 FROM action_results a JOIN runs r ON r.id = a.run_id
      WHERE r.rule_id = $1 AND r.contact_id = $2 AND a.status = 'succeeded'
        AND a.finished_at > now() - ($3::bigint * interval '1 millisecond') LIMIT 1`,
    [ruleId, contactId, OWN_WRITE_LOOP_WINDOW_MS],
  );
  return rows.length > 0;
}
