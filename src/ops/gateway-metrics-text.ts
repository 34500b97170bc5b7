// Renders the gateway's plain counters and budget snapshot as Prometheus text. Pure.
import type { BudgetSnapshot } from '../crm/crm-gateway.service';
import type { GatewayCounters } from '../crm/gateway-metrics';

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

export function gatewayMetricsText(c: GatewayCounters, budget: BudgetSnapshot | undefined): string {
  const lines: string[] = [];
  const metric = (name: string, type: 'counter' | 'gauge', help: string, samples: [string, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  };
  const calls: [string, number][] = [];
  for (const [op, outcomes] of Object.entries(c.calls)) {
    for (const [outcome, n] of Object.entries(outcomes))
      calls.push([`{operation="${esc(op)}",outcome="${outcome}"}`, n ?? 0]);
  }
  metric(
    'crmr_crm_calls_total',
    'counter',
    'CRM calls that reached the wire, by operation and outcome',
    calls,
  );
  metric(
    'crmr_crm_failures_total',
    'counter',
    'CRM calls that failed for good',
    Object.entries(c.failures).map(([op, n]) => [`{operation="${esc(op)}"}`, n]),
  );
  metric('crmr_crm_429_total', 'counter', '429 answers received from the CRM', [['', c.rateLimited429]]);
  metric('crmr_crm_retries_total', 'counter', 'Retries of transient CRM failures', [['', c.retries]]);
  metric('crmr_budget_waits_total', 'counter', 'Calls that waited for a budget slot', [['', c.budgetWaits]]);
  metric('crmr_budget_wait_seconds_total', 'counter', 'Total time calls waited for a budget slot', [
    ['', c.budgetWaitMsTotal / 1000],
  ]);
  if (budget) {
    metric(
      'crmr_budget_used',
      'gauge',
      'Calls counting against the CRM limit in the current window (all processes)',
      [['', budget.usedInWindow]],
    );
    metric('crmr_budget_limit', 'gauge', 'The CRM limit per window', [['', budget.limit]]);
    metric('crmr_budget_tokens', 'gauge', 'Calls still available in the current window', [
      ['', Math.max(0, budget.limit - budget.usedInWindow)],
    ]);
    metric('crmr_budget_waiting', 'gauge', 'Calls waiting for a slot (all processes)', [
      ['{priority="interactive"}', budget.waiting.interactive],
      ['{priority="bulk"}', budget.waiting.bulk],
    ]);
    metric('crmr_budget_paused', 'gauge', '1 while a CRM 429 pause is in force', [
      ['', budget.pausedUntil ? 1 : 0],
    ]);
  }
  return lines.join('\n') + '\n';
}
