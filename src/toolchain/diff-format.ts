// Rule diffs for people (text), machines (json) and pull requests (markdown). Pure.
import type { ReportFormat } from './forecast-format';
import type { ContactChange, RuleSetDiff } from './rule-diff';

export function formatDiff(d: RuleSetDiff, format: ReportFormat, base: string): string {
  if (format === 'json') return JSON.stringify(d, null, 2);
  const md = format === 'markdown';
  const lines = [
    md
      ? `### crm-rules diff against \`${base}\`: ${d.changedRules} changed rule(s), ${d.events} recorded event(s) replayed`
      : `diff against ${base}: ${d.changedRules} changed rule(s), ${d.events} recorded event(s) replayed`,
  ];
  if (d.rules.length === 0) lines.push(md ? '' : '', 'no rule changed');
  for (const r of d.rules) {
    const head = `${r.rule} (${r.change}): ${r.lost.contacts} contact(s) lose actions in ${r.lost.runs} run(s), ${r.gained.contacts} gain in ${r.gained.runs}`;
    lines.push(md ? `\n**${head}**\n` : head);
    const ex = (sign: string, c: ContactChange) =>
      `${md ? '- ' : '    '}${sign} ${c.contactId}: ${c.actions.join(', ')} (${c.eventType} ${c.eventId} at ${c.at})`;
    for (const c of r.lost.examples) lines.push(ex('−', c));
    for (const c of r.gained.examples) lines.push(ex('+', c));
  }
  return lines.join('\n');
}

export function hasChanges(d: RuleSetDiff): boolean {
  return d.rules.some((r) => r.lost.runs > 0 || r.gained.runs > 0);
}
