// Rule diffs for people (text), machines (json) and pull requests (markdown), the messaging policy
// replayed on both sides said in the first line, the prior messages its caps start from in the
// second (a footnote in markdown, as in forecast). Pure.
import type { ReportFormat } from './forecast-format';
import type { ContactChange, RuleChange, RuleSetDiff } from './rule-diff';

const POLICY_NOTE: Record<RuleSetDiff['policy'], string> = {
  none: 'no messaging policy',
  same: 'the same messaging policy on both sides',
  changed: 'the messaging policy (policy.yaml) changed',
};

const CHANGE: Record<RuleChange['change'], string> = {
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  unchanged: 'unchanged, its messages held differently by the messaging policy',
};

export function formatDiff(d: RuleSetDiff, format: ReportFormat, base: string): string {
  if (format === 'json') return JSON.stringify(d, null, 2);
  const md = format === 'markdown';
  const summary = `${d.changedRules} changed rule(s), ${d.events} recorded event(s) replayed, ${POLICY_NOTE[d.policy]}`;
  const lines = [
    md ? `### crm-rules diff against \`${base}\`: ${summary}` : `diff against ${base}: ${summary}`,
  ];
  if (d.priorMessages && !md) lines.push(d.priorMessages.text);
  if (d.rules.length === 0) lines.push(md ? '' : '', 'no rule changed');
  for (const r of d.rules) {
    const head = `${r.rule} (${CHANGE[r.change]}): ${r.lost.contacts} contact(s) lose actions in ${r.lost.runs} run(s), ${r.gained.contacts} gain in ${r.gained.runs}`;
    lines.push(md ? `\n**${head}**\n` : head);
    const ex = (sign: string, c: ContactChange) =>
      `${md ? '- ' : '    '}${sign} ${c.contactName ? `${c.contactName} ${c.contactId}` : c.contactId}: ${c.actions.join(', ')} (${c.eventType} ${c.eventId} at ${c.at})`;
    for (const c of r.lost.examples) lines.push(ex('−', c));
    for (const c of r.gained.examples) lines.push(ex('+', c));
  }
  if (d.priorMessages && md) lines.push('', `_${d.priorMessages.text}._`);
  return lines.join('\n');
}

export function hasChanges(d: RuleSetDiff): boolean {
  return d.rules.some((r) => r.lost.runs > 0 || r.gained.runs > 0);
}
