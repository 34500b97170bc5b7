// "Rule R did not match contact C's event", as the ledger now keeps it (issue 35): a rule that did
// not match an event where another rule matched has a `not_matched` run; an event no rule matched
// keeps only its decision on its inbox row, and which rules did not match is its explain on demand.
import type { DataSource } from 'typeorm';
import { ADMIN_TOKEN, eventually, type Harness } from './engine-harness';
import { api } from './http';

export interface NotMatched {
  inboxEventId: string;
  /** When the engine decided (the run's creation, or the event's processing). */
  at: Date;
  trace: unknown[];
}

/** Explains a stored event: each listening rule, matched or not, with its trace. */
export async function explainEvent(
  h: Harness,
  inboxEventId: string,
): Promise<{ ruleId: string; matched: boolean; trace: unknown[]; lines: string[] }[]> {
  const res = await api(h.url, 'GET', `/admin/events/${inboxEventId}/explain`, undefined, {
    'x-admin-token': ADMIN_TOKEN,
  });
  if (res.status !== 200)
    throw new Error(`explain ${inboxEventId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.rules;
}

/** Waits until `rule` was decided not matched for one of the contact's events; undefined on a match. */
export function notMatchedFor(
  h: Harness,
  db: DataSource,
  rule: string,
  contactId: string,
  timeoutMs = 60_000,
): Promise<NotMatched> {
  return eventually(async () => {
    const [run] = await db.query(
      `SELECT inbox_event_id, created_at, trace FROM runs
        WHERE rule_id = $1 AND contact_id = $2 AND status = 'not_matched' ORDER BY created_at LIMIT 1`,
      [rule, contactId],
    );
    if (run) return { inboxEventId: run.inbox_event_id, at: run.created_at, trace: run.trace };
    const events: { id: string; processed_at: Date }[] = await db.query(
      `SELECT id, processed_at FROM inbox_events WHERE contact_id = $1 AND unmatched_rules IS NOT NULL ORDER BY received_at`,
      [contactId],
    );
    for (const event of events) {
      const mine = (await explainEvent(h, event.id)).find((r) => r.ruleId === rule && !r.matched);
      if (mine) return { inboxEventId: event.id, at: event.processed_at, trace: mine.trace };
    }
    return undefined;
  }, timeoutMs);
}
