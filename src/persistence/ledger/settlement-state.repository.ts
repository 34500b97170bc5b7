// The one read settlement at creation decides from (src/pipeline/admission/settle-in-transaction.ts),
// over runs, contact_leases, contact_mirror and inbox_events: a statement spanning four tables, so it
// has its own small read-only repository rather than a place in one table's. Called on the pool
// before a batch's write (record-matched-events-at-once.ts), or in the events transaction.
import type { Contact } from '@crm-rules/crm-contract';
import type { Queryable } from '../sql/queryable';
import type { InboxEventEntity } from './inbox-event.entity';
import type { RunRow } from './run-rows';
import { ruleContactKey, type RuleContact } from './action-results.repository';

/**
 * One statement over runs, contact_leases, contact_mirror (and, for templated values, the event's
 * inbox row). Its point is that the three answers come from ONE snapshot (one statement under READ
 * COMMITTED), which three repository calls could not give.
 *
 * Why settling on it is serializable with the runner: the settlement writes nothing to the CRM or
 * the mirror, only its own run, finished. A run of this contact that this snapshot cannot see
 * (another event's transaction, not yet committed) is ordered after this one: its runner starts
 * after that commit, takes the lease and reads the mirror / CRM state, which this settlement did
 * not change, so it acts exactly as if this run had been executed first, which is how two events'
 * runs are ordered today (by commit: the runner only works runs it can see). Every run this
 * snapshot can see must have finished, and no job may hold the lease: a runner that wrote the
 * CRM updates the mirror before it finishes its run and releases its lease, so a quiet contact's
 * mirror row already holds what earlier runs wrote (as the runner's own next run would read it).
 * A run inserted earlier in this same transaction (an earlier rule of the same event) is seen as
 * pending, so the later rule's run waits for the runner behind it. A batch of events reads before
 * inserting any run, for all its candidate contacts at once: the runs of the batch itself are
 * accounted for in memory, in batch order (settle-batch-order.ts).
 */
// The statement is a function with a cached plan (migration 1796010000000): a contact's unfinished
// runs may be of any day, and planning against every daily partition cost more than the read.
const SETTLEMENT_STATE_SQL = `SELECT * FROM contacts_settlement_state($1::text[], $2::uuid[])`;

/**
 * Loop protection's lookup (ActionResultsRepository.recentSuccesses' function) and the settlement
 * read in one statement: what a batch written at once reads before its write, one round trip and
 * one connection. The pairs held back come as rows of kind `held` (id: the rule, contact: the contact).
 */
const WITH_RECENT_SUCCESSES_SQL = `SELECT 'held'::text AS kind, h.rule_id AS id, h.contact_id AS contact,
         NULL::boolean AS quiet, NULL::jsonb AS mirrored, NULL::jsonb AS event_payload
    FROM runs_recent_successes($1::text[], $2::text[], $3::bigint) h
  UNION ALL
  SELECT s.kind, s.id, NULL, s.quiet, s.mirrored, s.event_payload
    FROM contacts_settlement_state($4::text[], $5::uuid[]) s`;

/** The statement's rows: one per contact, one per event; the columns of the other kind are null. */
interface SettlementStateRow {
  kind: 'contact' | 'event' | 'held';
  /** The contact's id, or the event's (as text). */
  id: string;
  /** Computed: no unfinished run of the contact and no live lease on it. */
  quiet: boolean | null;
  /**
   * contact_mirror.raw: the Contact as the CRM sent it (ContactMirrorEntity types it as a record;
   * not named here: persistence/ledger importing contacts/ would close a folder cycle).
   */
  mirrored: Contact | null;
  /** inbox_events.payload of the event. */
  event_payload: InboxEventEntity['payload'] | null;
  /** Of a `held` row (the rule is its id). */
  contact?: string;
}

/** Per contact: whether it is quiet (no unfinished run, no lease) and its mirror row; per event: its payload. */
export interface SettlementStates {
  contacts: Map<string, { quiet: boolean; mirrored: Contact | null }>;
  payloads: Map<string, RunRow['event_payload']>;
}

export class SettlementStateRepository {
  /** `db`: the pool, or the events transaction the settlement runs in. */
  constructor(private readonly db: Queryable) {}

  /** The settlement read of one run, or of a batch's candidates: one statement either way. */
  async read(contactIds: readonly string[], inboxEventIds: readonly string[]): Promise<SettlementStates> {
    return statesOf(
      await this.db.query(SETTLEMENT_STATE_SQL, [[...new Set(contactIds)], [...new Set(inboxEventIds)]]),
    );
  }

  /**
   * The same read (none for empty lists) with loop protection's: the (rule, contact) pairs whose
   * own write succeeded within `windowMs`, as ruleContactKey keys.
   */
  async readWithRecentSuccesses(
    pairs: readonly RuleContact[],
    windowMs: number,
    contactIds: readonly string[],
    inboxEventIds: readonly string[],
  ): Promise<{ held: Set<string>; states: SettlementStates }> {
    const rows: SettlementStateRow[] = await this.db.query(WITH_RECENT_SUCCESSES_SQL, [
      pairs.map((p) => p.ruleId),
      pairs.map((p) => p.contactId),
      windowMs,
      [...new Set(contactIds)],
      [...new Set(inboxEventIds)],
    ]);
    const held = new Set(
      rows
        .filter((r) => r.kind === 'held')
        .map((r) => ruleContactKey({ ruleId: r.id, contactId: r.contact! })),
    );
    return { held, states: statesOf(rows.filter((r) => r.kind !== 'held')) };
  }
}

function statesOf(rows: readonly SettlementStateRow[]): SettlementStates {
  const states: SettlementStates = { contacts: new Map(), payloads: new Map() };
  for (const row of rows) {
    if (row.kind === 'event') states.payloads.set(row.id, row.event_payload);
    else states.contacts.set(row.id, { quiet: row.quiet === true, mirrored: row.mirrored });
  }
  return states;
}
