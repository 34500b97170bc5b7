// Pure: a bulk run as the console shows it (its page and the rule page's list), and the contact
// ids an operator pastes into the rule page's form.
import type { BulkRunRow } from '../../../persistence/ledger/bulk-runs.repository';
import { when } from './display-format';

const STATE_TONE: Record<string, string> = {
  preparing: 'info',
  pending_confirmation: 'warn',
  running: 'info',
  done: 'ok',
  cancelled: 'muted',
  failed: 'bad',
};

const SOURCE_TEXT: Record<string, string> = {
  backfill: 'backfill on activation',
  list: 'a list of contacts',
  segment: 'a segment',
};

/** One row of a list: what, who, how many, where it stands. */
export function bulkRunSummary(
  b: Omit<BulkRunRow, 'contactIds'> & { contactIds?: string[]; contacts?: number },
) {
  const contacts = b.contacts ?? b.contactIds?.length ?? 0;
  return {
    id: b.id,
    href: `/console/bulk-runs/${b.id}`,
    state: b.state.replace('_', ' '),
    tone: STATE_TONE[b.state] ?? 'info',
    source:
      b.source === 'segment' && b.sourceDetail
        ? `the members of segment ${b.sourceDetail}`
        : (SOURCE_TEXT[b.source] ?? b.source),
    contacts,
    createdAt: when(b.createdAt),
    createdBy: b.createdBy,
    pending: b.state === 'pending_confirmation',
  };
}

/** The bulk run's page: its summary, the forecast in words, the first contacts, its runs by status. */
export function bulkRunPage(
  b: BulkRunRow,
  firstContacts: { id: string; label: string; href: string }[],
  runs: Record<string, number>,
) {
  const f = b.forecast;
  return {
    ...bulkRunSummary(b),
    ruleId: b.ruleId,
    ruleVersion: b.ruleVersion.slice(0, 12),
    decidedBy: b.decidedBy,
    detail: b.detail,
    matched: `${b.contactIds.length} of ${b.evaluated} contact(s) evaluated match`,
    forecast: f
      ? `${f.calls} CRM call(s) (${f.callsPerRun} a run): about ${f.minutesIfIdle} min at the whole budget, ${f.minutesAtMinShare} min at bulk's guaranteed share while interactive work waits`
      : undefined,
    firstContacts,
    more: Math.max(0, b.contactIds.length - firstContacts.length),
    runs: Object.entries(runs).map(([status, n]) => ({ status, n })),
    progress: `${b.runsCreated} of ${b.contactIds.length} run(s) created`,
  };
}

/** Ids pasted one per line, or separated by commas or spaces; undefined entries are dropped. */
export function pastedIds(text: unknown): string[] {
  return typeof text === 'string' ? text.split(/[\s,;]+/).filter(Boolean) : [];
}
