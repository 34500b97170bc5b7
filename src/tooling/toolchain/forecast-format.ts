// Forecasts for people (text), machines (json) and pull requests (markdown). Pure.
import { durationText } from '../../language/matching/format-timing';
import { formatDuration } from '../../pipeline/segments/plan/plan-format';
import type { BranchForecast, Forecast, RuleForecast } from './forecast';
import type { ActionForecast } from './forecast-actions';

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
      ...(f.priorMessages ? ['', `_${f.priorMessages.text}._`] : []),
    ].join('\n');
  }
  const lines = [`forecast over ${f.contacts} contact(s) at ${f.now}; ${budget}`];
  if (f.priorMessages) lines.push(f.priorMessages.text);
  for (const r of f.rules) lines.push(...ruleLines(r));
  if (f.rules.length === 0) lines.push('no segment rule to forecast');
  return lines.join('\n');
}

/** `[then] send-message "Hi" (after 2d)`: the arms it lies in and the waits before it. */
const actionName = (a: ActionForecast) =>
  `${a.arms?.length ? `[${a.arms.join(' > ')}] ` : ''}${a.action}${a.afterWaitMs ? ` (after ${durationText(a.afterWaitMs)})` : ''}`;

/** What happened beside the sends: skipped, deferred, not on the member's path. */
const besides = (a: ActionForecast): string[] => [
  ...(Object.keys(a.skipped).length ? [`skipped ${skipped(a.skipped)}`] : []),
  ...(a.deferred ? [`deferred ${skipped(a.deferred)}`] : []),
  ...(a.notTaken ? [`${a.notTaken} on another arm`] : []),
];

const branchText = (b: BranchForecast) =>
  `${b.branch}: ${b.arms.map((a) => `${a.label} ${a.contacts}`).join(', ')}${b.note ? ` (${b.note})` : ''}`;

function actionsCell(r: RuleForecast): string {
  return [
    ...(r.branches ?? []).map((b) => `_${branchText(b)}_`),
    ...r.actions.map((a) => {
      const more = besides(a);
      return `${actionName(a)}: ${a.sent}${more.length ? ` (${more.join('; ')})` : ''}`;
    }),
  ].join('<br>');
}

function ruleLines(r: RuleForecast): string[] {
  if (r.error) return [`✘ ${r.rule} (${r.file}): cannot forecast: ${r.error}`];
  return [
    `${r.rule} (${r.file})${r.mode === 'shadow' ? ' [shadow: records, calls nobody]' : ''}`,
    `  members now ${r.members}; ${r.entering} enter on the first sweep`,
    ...(r.branches ?? []).map((b) => `  ${branchText(b)}`),
    ...r.actions.map((a) => `  ${[`${actionName(a)}: ${a.sent} sent`, ...besides(a)].join(', ')}`),
    `  ${r.calls} CRM call(s), ~${formatDuration(r.durationMs)} at the budget left for sweeps`,
    ...(r.sample.length ? [`  e.g. ${r.sample.map((s) => `${s.name || '?'} (${s.id})`).join(', ')}`] : []),
  ];
}
