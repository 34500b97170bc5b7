// Forecasts for people (text), machines (json) and pull requests (markdown). Pure.
import { formatDuration } from '../segments/plan/plan-format';
import type { Forecast, RuleForecast } from './forecast';

export type ReportFormat = 'text' | 'json' | 'markdown';

const skipped = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ');

export function formatForecast(f: Forecast, format: ReportFormat): string {
  if (format === 'json') return JSON.stringify(f, null, 2);
  const budget = `budget ${f.budgetPerMinute}/min; event rules use ~${f.eventCallsPerMinute}/min, leaving ${f.bulkCallsPerMinute}/min for sweeps`;
  if (format === 'markdown') {
    const rows = f.rules.map((r) =>
      r.error
        ? `| \`${r.rule}\` | ⚠ ${r.error} | | | | |`
        : `| \`${r.rule}\`${r.mode === 'shadow' ? ' (shadow)' : ''} | ${r.members} | ${r.entering} | ${actionsCell(r)} | ${r.calls} | ${formatDuration(r.durationMs)} |`,
    );
    return [
      `### crm-rules forecast: first sweep of ${f.rules.length} segment rule(s) over ${f.contacts} contact(s)`,
      '',
      '| rule | members now | enter on first sweep | actions (after guards) | CRM calls | time at budget |',
      '|---|---:|---:|---|---:|---:|',
      ...rows,
      '',
      `_${budget}._`,
    ].join('\n');
  }
  const lines = [`forecast over ${f.contacts} contact(s) at ${f.now}; ${budget}`];
  for (const r of f.rules) lines.push(...ruleLines(r));
  if (f.rules.length === 0) lines.push('no segment rule to forecast');
  return lines.join('\n');
}

function actionsCell(r: RuleForecast): string {
  return r.actions
    .map(
      (a) =>
        `${a.action}: ${a.sent}${Object.keys(a.skipped).length ? ` (skipped ${skipped(a.skipped)})` : ''}${a.deferred ? ` (deferred ${skipped(a.deferred)})` : ''}`,
    )
    .join('<br>');
}

function ruleLines(r: RuleForecast): string[] {
  if (r.error) return [`✘ ${r.rule} (${r.file}): cannot forecast: ${r.error}`];
  return [
    `${r.rule} (${r.file})${r.mode === 'shadow' ? ' [shadow: records, calls nobody]' : ''}`,
    `  members now ${r.members}; ${r.entering} enter on the first sweep`,
    ...r.actions.map(
      (a) =>
        `  ${a.action}: ${a.sent} sent${Object.keys(a.skipped).length ? `, skipped ${skipped(a.skipped)}` : ''}${a.deferred ? `, deferred ${skipped(a.deferred)}` : ''}`,
    ),
    `  ${r.calls} CRM call(s), ~${formatDuration(r.durationMs)} at the budget left for sweeps`,
    ...(r.sample.length ? [`  e.g. ${r.sample.map((s) => `${s.name || '?'} (${s.id})`).join(', ')}`] : []),
  ];
}
