// Settling an at-most-once write (a message to a customer) whose outcome is unknown: the CRM may
// or may not have applied it (timeout, 5xx, reset after sending, a worker killed mid-call). It is
// never sent again here: the write is looked up (found → succeeded), otherwise the action becomes
// `uncertain` and waits for an operator (POST /admin/actions/:id/resolve).
import type { Logger } from '@nestjs/common';
import { isCrmError } from '../crm/crm-errors';
import { provablyUnsent } from '../crm/retry-policy';
import type { ActionRow } from '../ledger/action-results.repository';
import type { RunRow } from '../ledger/run-rows';
import type { EngineMetrics } from '../ops/engine-metrics';
import { describeFailure } from './action-failure';
import type { ExecutionEnv } from './catalogue/action-definition';
import { actionDefinition, type ResolvedAction } from './catalogue/catalogue';
import { TransientActionError, type ActionOutcome, type RunLedger } from './run-ledger';

/** A failure after which the CRM may or may not have applied the call (timeout, 5xx, reset). */
export function unclearOutcome(err: unknown): boolean {
  return isCrmError(err) && err.retryable && !provablyUnsent(err);
}

export interface UnclearWrite {
  run: RunRow;
  row: ActionRow;
  resolved: ResolvedAction;
  env: ExecutionEnv;
  /** When the attempt began (the `running` mark): the write, if made, is not older. */
  since: Date;
  finalAttempt: boolean;
  /** The failure that left the outcome unclear; undefined after a crash mid-call. */
  cause: unknown;
}

/**
 * Found → succeeded (`found_after_unclear_outcome`), otherwise `uncertain` for an operator.
 * If the lookup itself fails the row stays `running`, so the next attempt looks again (on the
 * final attempt it ends `uncertain`: still never sent twice).
 */
export async function settleUnclear(
  ledger: RunLedger,
  deps: { metrics: EngineMetrics; logger: Logger },
  w: UnclearWrite,
): Promise<Extract<ActionOutcome, 'next' | 'uncertain'>> {
  const { run, row, resolved, env } = w;
  const def = actionDefinition(resolved.type);
  const started = Date.now();
  let found = false;
  try {
    found = (await def.lookup?.(resolved, { ...env, target: env.target ?? {}, since: w.since })) ?? false;
  } catch (err) {
    if (!w.finalAttempt)
      throw new TransientActionError(`${resolved.type}: looking the write up failed: ${String(err)}`);
  }
  if (found) {
    await ledger.actions.succeed(row.id, Date.now() - started, null, 'found_after_unclear_outcome');
    deps.metrics.actions.inc({
      type: resolved.type,
      status: 'succeeded',
      reason: 'found_after_unclear_outcome',
    });
    return 'next';
  }
  const failure = w.cause
    ? describeFailure(w.cause)
    : {
        code: 'interrupted',
        message: 'the worker stopped while the call was in flight',
        status: null,
        requestId: null,
      };
  await ledger.actions.fail(row.id, 'uncertain', failure, Date.now() - started);
  deps.metrics.actions.inc({ type: resolved.type, status: 'uncertain', reason: failure.code });
  deps.logger.warn(
    `rule ${run.rule_id}: ${resolved.type} on contact ${run.contact_id} uncertain (${failure.code}): not found, not sent again; an operator decides`,
  );
  return 'uncertain';
}
