// Pure: the console's Events list (GET /console/events). An event no rule matched leaves no run, so
// this is where an operator finds it ("which message.received events did nothing today?") and
// opens its page, which rebuilds why each listening rule did not match.
import { contactLabel } from '../../../pipeline/contact-mirror/contact-search-term';
import { contactHref, when } from './display-format';
import { decisionText, type ShownEvent } from './event-page';

export const EVENT_STATUSES = ['pending', 'processed', 'failed'] as const;
export const EVENT_DECISIONS = ['unmatched', 'matched'] as const;

export interface EventFilter {
  type?: string;
  status?: (typeof EVENT_STATUSES)[number];
  decided?: (typeof EVENT_DECISIONS)[number];
}

/** The query's filter, refusing values outside the lists (a hand-typed URL gets a message, not a 500). */
export function eventFilter(q: Record<string, unknown>): { filter: EventFilter; error?: string } {
  const pick = <T extends string>(raw: unknown, allowed: readonly T[]): T | undefined | 'invalid' =>
    raw === undefined || raw === '' ? undefined : allowed.includes(raw as T) ? (raw as T) : 'invalid';
  const status = pick(q.status, EVENT_STATUSES);
  const decided = pick(q.decided, EVENT_DECISIONS);
  const type = typeof q.type === 'string' && q.type.trim() ? q.type.trim().slice(0, 100) : undefined;
  const error =
    status === 'invalid' || decided === 'invalid'
      ? `Status is one of ${EVENT_STATUSES.join(', ')}; decision one of ${EVENT_DECISIONS.join(', ')}.`
      : undefined;
  return {
    filter: {
      type,
      status: status === 'invalid' ? undefined : status,
      decided: decided === 'invalid' ? undefined : decided,
    },
    error,
  };
}

type ListedEvent = Omit<ShownEvent, 'payload'>;

export function eventRows(
  events: readonly ListedEvent[],
  names: Map<string, { name: string; phone: string; email?: string | null }>,
) {
  return events.map((e) => ({
    id: e.id,
    href: `/console/events/${e.id}`,
    receivedAt: when(e.receivedAt),
    type: e.type,
    status: e.status,
    tone: e.status === 'failed' ? 'bad' : e.unmatched ? 'muted' : e.status === 'processed' ? 'ok' : 'info',
    decision: decisionText(e),
    contactHref: e.contactId ? contactHref(e.contactId) : undefined,
    contactLabel: e.contactId ? contactLabel(names.get(e.contactId), e.contactId) : '',
  }));
}
