// Settling an at-most-once write (a message to a customer) after its `running` mark: an error
// that proves nothing was applied takes the usual failure path; a 2xx with an unreadable body is
// recorded applied; any other outcome (timeout, 5xx, reset after sending, a database or lease
// error after the call, a worker killed mid-call) is never sent again here: the write is looked
// up (found → succeeded), otherwise the action becomes `uncertain` and waits for an operator
// (POST /admin/actions/:id/resolve). If settling itself fails, the row stays `running`.
import type { Logger } from '@nestjs/common';
import { LeaseLostError } from './contact-lease';
import { verdictAfterRunning } from '../../language/catalogue/write-verdict';
import type { ActionRow } from '../../persistence/ledger/action-results.repository';
import type { RunRow } from '../../persistence/ledger/run-rows';
import type { EngineMetrics } from '../../operator/ops/engine-metrics';
import { describeFailure } from './action-failure';
import type { ExecutionEnv } from '../../language/catalogue/action-definition';
import { actionDefinition, type ResolvedAction } from '../../language/catalogue/catalogue';
import { TransientActionError, type ActionOutcome, type RunRepositories } from './run-repositories';

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
  ledger: RunRepositories,
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

/**
 * An error raised after an at-most-once write's `running` mark (verdictAfterRunning decides):
 * not_applied → `notApplied` (pending / failed / dead); applied → succeeded
 * (`applied_answer_unreadable`); unclear → the lookup. If recording that fails (a database that
 * refuses the success mark, a lost lease) the row is left `running`, never `pending`: the job is
 * retried and its next attempt looks the write up again (the `interrupted` path).
 */
export async function settleAfterRunning(
  ledger: RunRepositories,
  metrics: EngineMetrics,
  a: { row: ActionRow; type: string; started: number; unclear: (cause: unknown) => Promise<ActionOutcome> },
  err: unknown,
  notApplied: () => Promise<ActionOutcome>,
): Promise<ActionOutcome> {
  // Another job holds the contact now and writes nothing of ours: it finds the row `running` and looks up.
  if (err instanceof LeaseLostError) throw err;
  const verdict = verdictAfterRunning(err);
  if (verdict === 'not_applied') return notApplied();
  try {
    if (verdict === 'unclear') return await a.unclear(err);
    await ledger.actions.succeed(a.row.id, Date.now() - a.started, null, 'applied_answer_unreadable');
    metrics.actions.inc({ type: a.type, status: 'succeeded', reason: 'applied_answer_unreadable' });
    return 'next';
  } catch (settleErr) {
    if (settleErr instanceof TransientActionError || settleErr instanceof LeaseLostError) throw settleErr;
    throw new TransientActionError(
      `${a.type}: recording the outcome after the call failed, left running to be looked up: ${String(settleErr)}`,
    );
  }
}
