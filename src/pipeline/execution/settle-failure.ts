// The failure path of one action after its call threw (and nothing was left unclear): an error
// that means "already done" succeeds the row, a permanent failure (or the final attempt) ends it
// failed / dead for an operator to see, anything else marks it pending and throws so the job is
// retried. Kept apart from action-runner.service.ts so the runner reads as the action's life cycle.
import type { Logger } from '@nestjs/common';
import { CrmApiError } from '../../language/crm-terms/crm-errors';
import type { ActionRow } from '../../persistence/ledger/action-results.repository';
import type { RunRow } from '../../persistence/ledger/run-rows';
import type { EngineMetrics } from '../../operator/ops/engine-metrics';
import type { RuleAction } from '../../language/rules/format/rule-types';
import { actionDefinition } from '../../language/catalogue/catalogue';
import { describeFailure, isPermanentFailure } from './action-failure';
import { decideHttpFailure } from './idempotent-by-key';
import { TransientActionError, type ActionOutcome, type RunRepositories } from './run-repositories';

export interface FailedAttempt {
  run: RunRow;
  row: ActionRow;
  err: unknown;
  durationMs: number;
  finalAttempt: boolean;
}

/** `next` (already done), `failed` / `dead` (final), or throws TransientActionError (retry). */
export async function settleFailure(
  ledger: RunRepositories,
  deps: { metrics: EngineMetrics; logger: Logger },
  { run, row, err, durationMs, finalAttempt }: FailedAttempt,
): Promise<ActionOutcome> {
  const type = (row.action as RuleAction).type;
  const done = actionDefinition(type).alreadyDone?.(err);
  if (done) {
    const requestId = err instanceof CrmApiError ? (err.requestId ?? null) : null;
    await ledger.actions.succeed(row.id, durationMs, requestId, done);
    return 'next';
  }
  // http-request failures are decided by its repeat class (idempotent-by-key.ts).
  const http = decideHttpFailure(err);
  const permanent = http ? http.final : isPermanentFailure(err);
  const failure = http ? http.failure : describeFailure(err);
  if (permanent || finalAttempt) {
    const status: 'failed' | 'dead' = permanent ? 'failed' : 'dead';
    await ledger.actions.fail(row.id, status, failure, durationMs);
    // As the row now records it: the on-failure arm's failure.reason reads it (run-timing.service.ts).
    Object.assign(row, { error_code: failure.code, http_status: failure.status });
    deps.metrics.actions.inc({ type, status, reason: failure.code });
    deps.logger.warn(
      `rule ${run.rule_id}: ${type} on contact ${run.contact_id} ${status}: ${failure.code} ${failure.requestId ?? ''}`,
    );
    return status;
  }
  // At-most-once writes reach here only when nothing was applied (verdictAfterRunning:
  // not_applied). State-checked writes are guarded again on the retry.
  await ledger.actions.fail(row.id, 'pending', failure, durationMs);
  throw new TransientActionError(`${type} on contact ${run.contact_id}: ${failure.code}`);
}
