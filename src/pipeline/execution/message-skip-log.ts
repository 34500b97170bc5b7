// The warn line of a customer message the engine did not send for a reason an operator must see
// (language/policy/message-skips.ts): rule, run, action and contact ids and the reason, nothing
// of the contact itself (no name, phone or text: logs leave the database's access rules behind).
import type { LoggerService } from '@nestjs/common';
import { isAttentionSkip } from '../../language/policy/message-skips';

interface SkippedRow {
  action_index: number;
  action?: unknown;
}

/** Logs a warn line when the skip needs attention; true when it did. */
export function warnMessageSkip(
  logger: Pick<LoggerService, 'warn'>,
  run: { id: string; rule_id: string; contact_id: string },
  row: SkippedRow,
  reason: string,
): boolean {
  const type = (row.action as { type?: string } | null)?.type ?? 'unknown';
  if (!isAttentionSkip(type, reason)) return false;
  logger.warn(
    `rule ${run.rule_id}: ${type} (action ${row.action_index}) ${type === 'assign' ? 'not done for' : 'not sent to'} contact ${run.contact_id}: ` +
      `${reason}; run ${run.id} goes on without it (see /console/failures, Needs attention)`,
  );
  return true;
}
