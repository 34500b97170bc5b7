// Prior messages from the engine's own ledger: for each contact a forecast may message, the customer
// messages it got within the policy's longest cap period, read by the same repository query the
// engine's policy gate counts with (ActionResultsRepository.views.messagesSentTo). Read-only; loaded by the
// CLI only when a database is given (the CLI starts without pg).
import { Pool } from 'pg';
import { CUSTOMER_MESSAGE_TYPES } from '../../language/policy/customer-messages';
import { ledgerNeeds, type MessagingPolicy } from '../../language/policy/messaging-policy';
import { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import { serverAnswers } from '../../persistence/schema/databases.repository';
import { readOnlyPool } from '../../persistence/sql/read-only-pool';
import type { PriorMessages } from './prior-messages';

/** Contacts asked at once: a few connections, never the engine's whole pool. */
const PARALLEL = 4;

export async function ledgerPriorMessages(
  databaseUrl: string,
  policy: MessagingPolicy,
  now: Date,
  contactIds: readonly string[],
): Promise<PriorMessages> {
  const from = withoutPassword(databaseUrl);
  const needs = ledgerNeeds(policy);
  const pool = new Pool({ connectionString: databaseUrl, max: PARALLEL, connectionTimeoutMillis: 5000 });
  // An idle client's error (the server going away) must not end the process: the query fails instead.
  pool.on('error', () => undefined);
  try {
    const db = readOnlyPool(pool, 'the forecast reads the ledger, it never writes');
    const repository = new ActionResultsRepository(db);
    await serverAnswers(db);
    const byContact = new Map<string, Date[]>();
    if (!needs) return { source: 'ledger', from, byContact };
    const since = new Date(now.getTime() - needs.periodMs);
    const queue = [...contactIds];
    const worker = async () => {
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        const sent = await repository.views.messagesSentTo(id, CUSTOMER_MESSAGE_TYPES, since, needs.rows);
        const before = sent.filter((t) => t.getTime() <= now.getTime());
        if (before.length > 0) byContact.set(id, before);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    return { source: 'ledger', from, byContact };
  } catch (err) {
    return {
      source: 'none',
      byContact: new Map(),
      note: `the ledger at ${from} did not answer: ${(err as Error).message}`,
    };
  } finally {
    await pool.end();
  }
}

/** The address to print: no password. */
export function withoutPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(an unparsable DATABASE_URL)';
  }
}
