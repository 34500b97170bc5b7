// What the runner adds for http-request actions, kept out of the runner: the Idempotency-Key of an
// action (the same on every attempt, after a restart too), the outbound environment it executes
// with, and the values earlier steps of the run saved, rebuilt from the ledger's rows. Pure.
import type { ActionRow } from '../../persistence/ledger/action-results.repository';
import type { OutboundEnv } from '../../language/catalogue/action-definition';
import type { OutboundSender } from '../../language/net/outbound-request';

export type SavedSteps = Record<string, Record<string, unknown>>;

/** Stable across retries and restarts: the run and the action's place in it. */
export function idempotencyKey(runId: string, actionIndex: number): string {
  return `${runId}.${actionIndex}`;
}

/** The outbound environment of an idempotent-by-key action; undefined for CRM actions. */
export function outboundFor(
  repeat: string,
  sender: OutboundSender,
  runId: string,
  actionIndex: number,
): OutboundEnv | undefined {
  if (repeat !== 'idempotent-by-key') return undefined;
  return {
    send: (req) => sender.send(req),
    secretIn: (value) => sender.secretIn(value),
    idempotencyKey: idempotencyKey(runId, actionIndex),
    saved: {},
  };
}

/** The saved values of the run's succeeded http-request rows, by step name. */
export function savedSteps(rows: readonly Pick<ActionRow, 'action' | 'status' | 'saved'>[]): SavedSteps {
  const steps: SavedSteps = {};
  for (const row of rows) {
    const action = row.action as { type?: string; name?: string };
    if (row.status === 'succeeded' && action.type === 'http-request' && action.name && row.saved)
      steps[action.name] = row.saved;
  }
  return steps;
}
