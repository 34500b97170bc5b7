// The contact timeline: every source's rows turned into one list of steps in time order. Pure.
import { isAttentionSkip } from '../../../language/policy/message-skips';
import { describeLeaf, showValue } from '../../../language/matching/format-explain';
import type { ContactActionRow as TimelineActionRow } from '../../../persistence/ledger/action-results.repository';
import { decisionText } from './event-page';
import type { ContactDeliveryRow as DeliveryRow } from '../../../persistence/ledger/inbox-events.repository';
import type { ContactRunRow as TimelineRunRow } from '../../../persistence/ledger/run-rows';
import type { JournalRow } from '../../../persistence/journal/contact-journal.repository';
import { actionShown } from './display-format';

export type Tone = 'ok' | 'bad' | 'warn' | 'muted' | 'info';

const POLICY_REASONS = new Set(['policy_cap', 'quiet_hours', 'suppressed', 'holdout', 'control_arm']);

export interface TimelineStep {
  at: Date;
  kind: string;
  tone: Tone;
  title: string;
  detail: string;
  /** A console link for the step (a run), if any. */
  href?: string;
}

export interface TimelineSources {
  deliveries: DeliveryRow[];
  runs: TimelineRunRow[];
  actions: TimelineActionRow[];
  journal: JournalRow[];
}

export function buildTimeline(s: TimelineSources): TimelineStep[] {
  const steps: TimelineStep[] = [
    ...s.deliveries.map(deliveryStep),
    ...s.runs.map(runStep),
    ...s.actions.map(actionStep),
    ...s.journal.map(journalStep),
  ];
  // Stable: steps of one instant keep source order (delivery, evaluation, action, journal).
  return steps
    .map((step, i) => ({ step, i }))
    .sort((a, b) => a.step.at.getTime() - b.step.at.getTime() || a.i - b.i)
    .map(({ step }) => step);
}

function deliveryStep(d: DeliveryRow): TimelineStep {
  const replay = d.eventKey.startsWith('replay:');
  return {
    at: new Date(d.receivedAt),
    kind: replay ? 'replay' : 'delivery',
    tone: d.status === 'failed' ? 'bad' : 'info',
    title: `${replay ? 'replayed' : 'received'} ${d.type}`,
    // The event's page rebuilds why each rule matched or not (an unmatched event stores no runs).
    href: `/console/events/${d.id}`,
    detail: `event ${d.eventKey}; ${d.status === 'processed' ? decisionText(d) : d.status}${d.error ? `: ${d.error}` : ''}${mirrorText(d, replay)}`,
  };
}

/** What a contact.* delivery did to the mirror (the journal notes only the engine's own writes). */
function mirrorText(d: DeliveryRow, replay: boolean): string {
  if (replay || d.status !== 'processed' || !d.type.startsWith('contact.')) return '';
  if (d.type === 'contact.deleted') return '';
  if (d.outcome === 'mirror_skipped') return '; the mirror did not take the payload';
  return `; mirror updated: contact as of ${d.contactVersion ?? 'unknown'}`;
}

/** Trigger keys: `event:<inbox id>`, `sweep:<rule>:<tick>`, `sweep-leave:<rule>:<tick>`. */
function runStep(r: TimelineRunRow): TimelineStep {
  const href = `/console/runs/${r.id}`;
  const at = new Date(r.createdAt);
  const held = r.status === 'suppressed' ? ` — held back: ${r.reason ?? 'suppressed'}` : '';
  const shadow = r.mode === 'shadow' ? ' [shadow]' : '';
  if (r.triggerKey.startsWith('sweep-leave:'))
    return {
      at,
      href,
      kind: 'sweep',
      tone: 'info',
      title: `left the segment of ${r.ruleId}${shadow}`,
      detail: `on-leave actions ${r.status}${held}`,
    };
  if (r.triggerKey.startsWith('sweep:'))
    return {
      at,
      href,
      kind: 'sweep',
      tone: r.status === 'suppressed' ? 'warn' : 'info',
      title: `sweep of ${r.ruleId} included the contact${shadow}`,
      detail: `${leaves(r, true)}${held}`,
    };
  if (r.status === 'not_matched')
    return {
      at,
      href,
      kind: 'evaluation',
      tone: 'muted',
      title: `${r.ruleId} did not match`,
      detail: leaves(r, false),
    };
  return {
    at,
    href,
    kind: 'evaluation',
    tone: r.status === 'suppressed' ? 'warn' : 'ok',
    title: `${r.ruleId} matched${shadow}`,
    detail: `${leaves(r, true)}${held}`,
  };
}

/** The leaves that decided: the failing ones of a non-match, all of a match. */
function leaves(r: TimelineRunRow, matched: boolean): string {
  const shown = (r.trace ?? []).filter((t) => matched || !t.result);
  if (shown.length === 0) return matched ? 'no conditions' : 'conditions false';
  return shown
    .map((t) => `${t.result ? '✔' : '✘'} ${describeLeaf(t)}: saw ${showValue(t.actual)}`)
    .join('; ');
}

function actionStep(a: TimelineActionRow): TimelineStep {
  const what = `${a.ruleId}: ${actionShown(a.action)}`;
  const at = new Date(a.finishedAt ?? a.startedAt ?? 0);
  const href = `/console/runs/${a.runId}`;
  const request = a.requestId ? ` (request ${a.requestId})` : '';
  const took = a.durationMs !== null ? ` in ${a.durationMs} ms` : '';
  switch (a.status) {
    case 'succeeded':
      return {
        at,
        href,
        kind: 'crm',
        tone: 'ok',
        title: `${what} done`,
        detail: `CRM accepted${took}${request}`,
      };
    case 'skipped':
      return {
        at,
        href,
        // Held by the messaging policy (policy.yaml) rather than a guard of the CRM's rules.
        kind: a.reason && POLICY_REASONS.has(a.reason) ? 'policy' : 'guard',
        // A customer message not sent for a reason someone must see stands out (message-skips.ts).
        tone: isAttentionSkip((a.action as { type?: string }).type ?? '', a.reason) ? 'warn' : 'muted',
        title: `${what} skipped`,
        detail: [a.reason, a.errorMessage].filter(Boolean).join(': '),
      };
    case 'pending':
    case 'running':
      return {
        at,
        href,
        kind: 'crm',
        tone: 'info',
        title: `${what} ${a.status}`,
        detail: a.errorCode ? `last error ${a.errorCode}${request}` : '',
      };
    default:
      return {
        at,
        href,
        kind: 'crm',
        tone: 'bad',
        title: `${what} ${a.status}`,
        detail: `${a.errorCode ?? 'error'}${a.httpStatus ? ` HTTP ${a.httpStatus}` : ''}${took}${request}`,
      };
  }
}

function journalStep(j: JournalRow): TimelineStep {
  const d = j.detail as Record<string, string | number | undefined>;
  const at = new Date(j.at);
  switch (j.kind) {
    case 'delivery.duplicate':
      return {
        at,
        kind: 'delivery',
        tone: 'muted',
        title: `duplicate delivery of ${d.type}`,
        detail: `event ${d.eventKey}: already stored, ignored`,
      };
    case 'mirror.updated':
      return {
        at,
        kind: 'mirror',
        tone: 'info',
        title: `mirror updated (${d.source})`,
        detail: `contact as of ${d.updatedAt ?? 'unknown'}`,
      };
    case 'mirror.deleted':
      return {
        at,
        kind: 'mirror',
        tone: 'warn',
        title: 'mirror: contact deleted',
        detail: String(d.source ?? ''),
      };
    case 'crm.call': {
      const wait =
        Number(d.waitedMs ?? 0) >= 1 ? `; waited ${d.waitedMs} ms for the budget (${d.priority})` : '';
      const answer = d.outcome === 'ok' ? 'answered' : `failed ${d.outcome}`;
      const request = d.requestId ? ` (request ${d.requestId})` : '';
      return {
        at,
        kind: 'crm',
        tone: d.outcome === 'ok' ? 'info' : 'bad',
        title: `CRM ${d.operation}`,
        detail: `${answer} in ${d.durationMs} ms${wait}${request}`,
      };
    }
    case 'segment.left':
      return {
        at,
        kind: 'sweep',
        tone: 'info',
        title: `left the segment of ${d.ruleId}`,
        detail: 'no on-leave actions',
      };
    default:
      return { at, kind: j.kind, tone: 'info', title: j.kind, detail: JSON.stringify(j.detail) };
  }
}
