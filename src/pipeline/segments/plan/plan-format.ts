// The text form of a sweep plan, for `crm-rules plan`. Pure.
import { actionLabel } from '../../../language/catalogue/catalogue';
import type { ContactRef, SweepPlan } from './plan-sweep';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 120 ? `${m} min` : `${(m / 60).toFixed(1)} h`;
}

function people(title: string, total: number, list: ContactRef[]): string[] {
  const more = total > list.length ? ` (first ${list.length})` : '';
  return [`${title}: ${total}${more}`, ...list.map((c) => `  ${c.name || '(no name)'}  ${c.phone}  ${c.id}`)];
}

export function formatPlan(plan: SweepPlan): string[] {
  const m = plan.mirror;
  const c = plan.counts;
  const calls = plan.crmCalls;
  const lines = [
    `plan for ${plan.ruleId} (version ${plan.ruleVersion}, when: ${plan.when}, ${plan.mode}) at ${plan.at}`,
    `filters: ${JSON.stringify(plan.filters)}`,
    `mirror: ${m.contacts} contact(s), fresh at ${m.freshAt ?? 'never'}, last full sync ${m.lastFullSyncAt ?? 'never'}` +
      (m.fullSync ? `, full sync in progress at page ${m.fullSync.nextPage}` : ''),
    `segment: ${c.evaluated} evaluated, ${c.members} member(s), ${c.entering} entering, ${c.leaving} leaving, ${c.acting} get the actions`,
    ...people('entering', c.entering, plan.entering),
    ...people('leaving', c.leaving, plan.leaving),
    'actions:',
    ...plan.actions.map((a) => {
      const skipped = Object.entries(a.skipped).map(([reason, n]) => `${n} ${reason}`);
      const tail = skipped.length ? `, skipped: ${skipped.join(', ')}` : '';
      return `  ${a.on === 'leave' ? 'on-leave ' : ''}${actionLabel(a.action)}: ${a.contacts} contact(s), ${a.calls} call(s)${tail}${a.problem ? ` — ${a.problem}` : ''}`;
    }),
    `CRM calls: ${calls.mirrorRefresh} mirror refresh + ${calls.segmentSync} segment sync + ${calls.actions} action(s) = ${calls.total}`,
    `time at the current budget (${plan.budget.limit} per ${formatDuration(plan.budget.windowMs)}, ${plan.budget.usedInWindow} used, wait ${formatDuration(plan.budget.waitMs)}): about ${formatDuration(plan.estimatedMs)}`,
  ];
  if (plan.notes.length) lines.push('notes:', ...plan.notes.map((n) => `  - ${n}`));
  return lines;
}
