// ActionResultsRepository.views.messagesSentTo on Postgres: the count behind the messaging policy's caps
// (which rows count, newest first, the limit), and the plan a chatty contact gets: its many
// not-matched runs are not walked (IDX_runs_contact_acted).
import { randomUUID } from 'node:crypto';
import { ActionResultsRepository } from '../../../src/persistence/ledger/action-results.repository';
import { CUSTOMER_MESSAGE_TYPES } from '../../../src/language/policy/customer-messages';
import { createTestDb, type TestDb } from '../../support/test-db';
import { planUsesIndex } from '../../support/partition-indexes';

jest.setTimeout(60_000);

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.drop());

const NOW = new Date('2026-06-10T12:00:00Z');
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

async function run(contactId: string, status = 'succeeded'): Promise<string> {
  const [row] = await db.dataSource.query(
    `INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace, actions, priority)
     VALUES ($1, 'r', 'v', 's', $2, $3, '[]', '[]', 'interactive') RETURNING id`,
    [`event:${randomUUID()}`, contactId, status],
  );
  return row.id;
}

async function action(runId: string, index: number, type: string, status: string, startedAt: Date | null) {
  await db.dataSource.query(
    `INSERT INTO action_results (run_trigger_at, run_id, action_index, action, status, started_at) VALUES ((SELECT trigger_at FROM runs WHERE id = $1), $1, $2, $3, $4, $5)`,
    [runId, index, JSON.stringify({ type }), status, startedAt],
  );
}

describe('messagesSentTo', () => {
  it('counts the attempts that may have reached the customer, newest first', async () => {
    const contact = `c-${randomUUID()}`;
    const a = await run(contact);
    await action(a, 0, 'send-message', 'succeeded', ago(1));
    await action(a, 1, 'add-tag', 'succeeded', ago(1));
    await action(a, 2, 'send-template', 'uncertain', ago(3));
    await action(a, 3, 'react', 'succeeded', ago(2));
    const b = await run(contact, 'waiting');
    await action(b, 0, 'send-template', 'running', ago(2));
    await action(b, 1, 'send-message', 'pending', null);
    await action(b, 2, 'send-message', 'skipped', ago(1));
    await action(b, 3, 'send-message', 'failed', ago(1));
    await action(b, 4, 'send-message', 'succeeded', ago(30)); // before the period
    const other = await run(`c-${randomUUID()}`);
    await action(other, 0, 'send-message', 'succeeded', ago(1));
    const repo = new ActionResultsRepository(db.dataSource.manager);
    const since = ago(24);
    expect(await repo.views.messagesSentTo(contact, CUSTOMER_MESSAGE_TYPES, since, 10)).toEqual([
      ago(1),
      ago(2),
      ago(3),
    ]);
    expect(await repo.views.messagesSentTo(contact, CUSTOMER_MESSAGE_TYPES, since, 2)).toEqual([
      ago(1),
      ago(2),
    ]);
  });

  it("walks only a chatty contact's runs that acted", async () => {
    const contact = `c-${randomUUID()}`;
    await db.dataSource.query(
      `INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace, actions, priority)
       SELECT 'event:' || g, 'r', 'v', 's', $1, 'not_matched', '[]', '[]', 'interactive' FROM generate_series(1, 5000) g`,
      [contact],
    );
    const acted = await run(contact);
    await action(acted, 0, 'send-message', 'succeeded', ago(1));
    await db.dataSource.query(`ANALYZE runs`);
    await db.dataSource.query(`ANALYZE action_results`);
    const plan: { 'QUERY PLAN': string }[] = await db.dataSource.query(
      `EXPLAIN SELECT a.started_at FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.contact_id = $1 AND r.status NOT IN ('not_matched', 'suppressed')
          AND a.action->>'type' = ANY($2::text[])
          AND a.status IN ('running', 'succeeded', 'uncertain') AND a.started_at > $3
        ORDER BY a.started_at DESC LIMIT $4`,
      [contact, CUSTOMER_MESSAGE_TYPES, ago(24), 2],
    );
    const text = plan.map((p) => p['QUERY PLAN']).join('\n');
    expect(await planUsesIndex(db.dataSource, text, 'IDX_runs_contact_acted')).toBe(true);
    const repo = new ActionResultsRepository(db.dataSource.manager);
    expect(await repo.views.messagesSentTo(contact, CUSTOMER_MESSAGE_TYPES, ago(24), 2)).toEqual([ago(1)]);
  });
});
