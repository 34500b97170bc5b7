// Pure: what a bulk run will cost in CRM calls and time before an operator confirms it. Its runs
// go at bulk priority, so they use the whole budget only while no interactive work waits, and are
// guaranteed `bulkMinShare` of it when some does: the forecast gives both ends.
import { actionDefinition } from '../../language/catalogue/catalogue';
import type { RuleAction } from '../../language/rules/format/rule-types';
import type { BulkRunForecast } from '../../persistence/ledger/bulk-run.entity';

export interface BudgetShape {
  /** Requests per window (the CRM's 300 per minute). */
  limit: number;
  windowMs: number;
  /** Share of the budget bulk work keeps while interactive work waits (CRM_BULK_MIN_SHARE). */
  bulkMinShare: number;
}

/** CRM calls one run makes at most: one per action that calls the CRM, one more for an assign-first. */
export function callsPerRun(actions: readonly RuleAction[]): number {
  return actions.reduce((sum, action) => {
    if (actionDefinition(action.type).callsCrm === false) return sum;
    return sum + 1 + ((action as { assignFirst?: unknown }).assignFirst ? 1 : 0);
  }, 0);
}

export function bulkRunForecast(
  contacts: number,
  actions: readonly RuleAction[],
  budget: BudgetShape,
): BulkRunForecast {
  const perRun = callsPerRun(actions);
  const calls = contacts * perRun;
  const perMinute = (budget.limit * 60_000) / budget.windowMs;
  const round = (minutes: number) => Math.ceil(minutes * 10) / 10;
  return {
    contacts,
    callsPerRun: perRun,
    calls,
    minutesIfIdle: round(calls / perMinute),
    minutesAtMinShare: budget.bulkMinShare > 0 ? round(calls / (perMinute * budget.bulkMinShare)) : Infinity,
  };
}
