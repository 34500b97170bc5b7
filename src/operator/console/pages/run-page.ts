// A run as people read it: the condition tree with ✔/✘ and the values seen (the same text as
// `crm-rules explain`, from format-explain.ts), then its actions. Pure.
import { formatTraceList, formatTree } from '../../../language/matching/format-explain';
import type { RunActionView } from '../../../persistence/ledger/action-result-views.repository';
import { runPath, type TimelineEntry } from '../../../persistence/ledger/run-timeline-entry';
import type { ConditionTrace, RuleDefinition } from '../../../language/rules/format/rule-types';
import { actionShown, contactHref, statusText, statusTone, triggerText, when } from './display-format';
import { isAttentionSkip } from '../../../language/policy/message-skips';
import { contactLabel } from '../../../pipeline/contact-mirror/contact-search-term';

/** A run as RunsRepository.views.show() gives it, plus its event's type. */
export interface RunDetail {
  id: string;
  triggerKey: string;
  ruleId: string;
  ruleVersion: string;
  ruleSetVersion: string;
  /** The deployed version (git commit or `dir-<hash>`) the run's rule set came from. */
  rulesCommit?: string | null;
  contactId: string;
  status: string;
  reason: string | null;
  mode: string;
  trace: ConditionTrace[];
  correlationId: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  eventType?: string | null;
  /** Waits, windows, limits, the messaging policy and the branches the run met (runs.timeline). */
  timeline?: TimelineEntry[] | null;
}

export interface TraceLine {
  text: string;
  tone: 'ok' | 'bad' | 'muted';
  depth: number;
}

/** Lines of formatTree / formatTraceList, split into depth and tone for the page. */
export function traceLines(
  run: Pick<RunDetail, 'trace' | 'ruleVersion'>,
  rule?: RuleDefinition,
): TraceLine[] {
  const sameRule = rule && rule.version === run.ruleVersion;
  let lines: string[];
  if (sameRule && !rule.conditions) lines = ['✔ no conditions: always matches'];
  else if (sameRule) lines = formatTree(rule.conditions!, run.trace ?? [], '');
  else lines = formatTraceList(run.trace ?? [], '');
  if (lines.length === 0) lines = ['✔ no conditions: always matches'];
  return lines.map((line) => {
    const text = line.trimStart();
    const depth = Math.min(6, (line.length - text.length) / 2);
    const tone = text.startsWith('✔') ? 'ok' : text.startsWith('✘') ? 'bad' : 'muted';
    return { text, tone, depth };
  });
}

/** The action as the page shows it: a message with its text as sent (rendered), else its label. */
function actionText(a: RunActionView): { text: string; template: string } {
  const label = actionShown(a.action);
  const sent = a.target?.text;
  if (sent === undefined) return { text: label, template: '' };
  const type = (a.action as { type?: string }).type ?? 'message';
  return { text: `${type} “${sent}”`, template: label };
}

/** A customer message of the run not sent for a reason an operator must see, in words. */
function messageSkips(actions: RunActionView[]) {
  const skipped = actions.filter((a) =>
    isAttentionSkip((a.action as { type?: string }).type ?? '', a.status === 'skipped' ? a.reason : null),
  );
  return skipped.map((a) => {
    const later = actions.filter((b) => b.index > a.index && b.status === 'succeeded').map((b) => b.index);
    return {
      index: a.index,
      text: `${actionShown(a.action)} was not ${(a.action as { type?: string }).type === 'assign' ? 'done' : 'sent'}: ${a.reason}${a.errorMessage ? ` (${a.errorMessage})` : ''}`,
      later: later.length
        ? `Later actions (${later.map((i) => `#${i}`).join(', ')}) ran anyway, as if the message had gone out.`
        : '',
    };
  });
}

export function runPage(
  run: RunDetail,
  actions: RunActionView[],
  rule: RuleDefinition | undefined,
  budgetWaits: Map<number, number>,
  contact?: { name: string; phone: string },
) {
  const skips = messageSkips(actions);
  return {
    run,
    contactHref: contactHref(run.contactId),
    contactName: contact?.name ?? '',
    contactLabel: contactLabel(contact, run.contactId),
    messageSkips: skips,
    tone: statusTone(run.status, run.reason, skips.length > 0),
    statusText: statusText(run.status, run.reason, skips.length > 0),
    trigger: triggerText(run.triggerKey, run.eventType),
    eventHref: run.triggerKey.startsWith('event:') ? `/console/events/${run.triggerKey.slice(6)}` : undefined,
    staleRule: !!rule && rule.version !== run.ruleVersion,
    createdAt: when(run.createdAt),
    finishedAt: when(run.finishedAt),
    trace: traceLines(run, rule),
    timing: (run.timeline ?? []).map(timelineText),
    ...branchView(run.timeline ?? []),
    actions: actions.map((a) => ({
      index: a.index,
      ...actionText(a),
      status: a.status,
      tone: statusTone(a.status),
      reason: [a.reason, a.errorMessage && a.errorMessage !== a.reason ? a.errorMessage : null]
        .filter(Boolean)
        .join(': '),
      answer: a.httpStatus
        ? `HTTP ${a.httpStatus}${a.errorCode ? ` ${a.errorCode}` : ''}`
        : a.status === 'succeeded'
          ? '2xx'
          : '',
      requestId: a.requestId ?? '',
      attempts: a.attempts,
      duration: a.durationMs !== null ? `${a.durationMs} ms` : '',
      budgetWait: budgetWaits.has(a.index) ? `${budgetWaits.get(a.index)} ms` : '',
    })),
  };
}

/** `waiting until … (policy: quiet_hours, quiet hours 21:00-08:00 in Europe/Berlin) at action 0`. */
export function timelineText(e: TimelineEntry): string {
  const why = [e.for, e.reason].filter(Boolean).join(': ');
  const parts = [
    e.step,
    e.until ? `until ${when(new Date(e.until))}` : '',
    why || e.detail ? `(${[why, e.detail].filter(Boolean).join(', ')})` : '',
    e.action !== undefined ? `at action ${e.action}` : '',
    e.event ? `by ${awaitedEventText(e.event)}` : '',
  ];
  return `${when(new Date(e.at))} ${parts.filter(Boolean).join(' ')}`;
}

/** The event that ended a wait: `message.created evt-9 "2"` (its text, when a message). */
export function awaitedEventText(event: NonNullable<TimelineEntry['event']>): string {
  const text = (event.data as { text?: unknown } | null)?.text;
  const quoted = typeof text === 'string' ? ` "${text.length > 60 ? `${text.slice(0, 59)}…` : text}"` : '';
  return `${event.type}${event.id ? ` ${event.id}` : ''}${quoted}`;
}

/** The run's path through its branches, and why each arm was taken (its conditions' trace). */
export function branchView(timeline: readonly TimelineEntry[]) {
  const path = runPath(timeline);
  const branches = timeline
    .filter((e) => e.step === 'branch')
    .map((e) => ({
      label: e.label ?? '',
      at: when(new Date(e.at)),
      why: e.detail ?? '',
      trace: formatTraceList(e.trace ?? [], '').map((line) => {
        const text = line.trimStart();
        return { text, tone: text.startsWith('✔') ? 'ok' : text.startsWith('✘') ? 'bad' : 'muted' };
      }),
    }));
  return { path: path.length > 0 ? path.join(' → ') : '', branches };
}
