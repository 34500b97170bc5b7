// Pure: the console's page for one stored event (GET /console/events/:id). An event no rule matched
// keeps only a compact decision on its row (issue 35), so the page shows that decision and the
// explain recomputed on demand by EventExplainer: each listening rule, matched or not, and why.
import type { EventExplain } from '../../../pipeline/matching/event-explainer.service';
import type { UnmatchedDecision } from '../../../persistence/ledger/inbox-event.entity';
import { clipJsonDepth } from '../../../language/net/json-depth';
import { contactHref, when } from './display-format';

export interface ShownEvent {
  id: string;
  eventKey: string;
  type: string;
  status: string;
  outcome: string | null;
  unmatched: UnmatchedDecision | null;
  attempts: number;
  lastError: string | null;
  contactId: string | null;
  receivedAt: Date | string;
  processedAt: Date | string | null;
  payload: unknown;
}

/** What the processing decided, in one sentence an operator reads first. */
export function decisionText(e: Pick<ShownEvent, 'status' | 'outcome' | 'unmatched'>): string {
  if (e.status === 'pending') return 'not processed yet';
  if (e.status === 'failed') return 'processing failed (see the error; replay it from Failures)';
  if (e.outcome === 'contact_gone') return 'the CRM no longer had the contact: nothing to match';
  const d = e.unmatched;
  if (d)
    return d.rules === 0
      ? `no rule listened to this kind (rule set ${d.set})`
      : `no rule matched: ${d.rules} rule(s) of rule set ${d.set}${d.commit ? ` (${d.commit})` : ''} listened`;
  return 'a rule matched: its runs are below and in the Runs list';
}

/** The page's view. `explain` is undefined when it could not be computed (`explainError` says why). */
export function eventPage(
  e: ShownEvent,
  contact: { name: string } | undefined,
  explain: EventExplain | undefined,
  runs: { id: string; ruleId: string; status: string }[],
  explainError?: string,
) {
  const runOf = new Map(runs.map((r) => [r.ruleId, r]));
  return {
    event: e,
    replay: e.eventKey.startsWith('replay:'),
    receivedAt: when(e.receivedAt),
    processedAt: when(e.processedAt),
    decision: decisionText(e),
    contactHref: e.contactId ? contactHref(e.contactId) : undefined,
    contactLabel: contact?.name ?? e.contactId ?? '',
    explainError,
    notes: explain?.notes ?? [],
    ruleSet: explain?.ruleSet,
    rules: (explain?.rules ?? []).map((r) => ({
      ruleId: r.ruleId,
      href: `/console/rules/${encodeURIComponent(r.ruleId)}`,
      version: r.ruleVersion,
      verdict: r.matched ? 'matched' : 'did not match',
      tone: r.matched ? 'ok' : 'muted',
      lines: r.lines,
      run: runOf.get(r.ruleId) && {
        href: `/console/runs/${runOf.get(r.ruleId)!.id}`,
        status: runOf.get(r.ruleId)!.status,
      },
    })),
    runs: runs.map((r) => ({ ...r, href: `/console/runs/${r.id}` })),
    noRules: explain !== undefined && explain.rules.length === 0,
    // A row stored before intake refused deep payloads would break JSON.stringify: cut.
    payload: JSON.stringify(clipJsonDepth(e.payload), null, 2),
  };
}
