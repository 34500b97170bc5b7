// ActionResultsRepository.views.skippedMessages / countSkippedMessages and RunsRepository.views.list's
// "succeeded with skips" flag on Postgres: which skips count (a customer message, an attention
// reason, since a time, per rule), and the partial index the overview's 5-second count reads.
import { randomUUID } from 'node:crypto';
import { ActionResultsRepository } from '../../../src/persistence/ledger/action-results.repository';
import { RunsRepository } from '../../../src/persistence/ledger/runs.repository';
import { ATTENTION_INDEX_REASONS, MESSAGE_SKIP_KINDS } from '../../../src/language/policy/message-skips';
import { createTestDb, type TestDb } from '../../support/test-db';
import { planUsesIndex } from '../../support/partition-indexes';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.drop());

const NOW = new Date('2026-06-10T12:00:00Z');
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

async function run(ruleId: string): Promise<string> {
  const [row] = await db.dataSource.query(
    `INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace, actions, priority)
     VALUES ($1, $2, 'v', 's', $3, 'succeeded', '[]', '[]', 'interactive') RETURNING id`,
    [`event:${randomUUID()}`, ruleId, `c-${randomUUID()}`],
  );
  return row.id;
}

async function skipped(runId: string, index: number, type: string, reason: string, at: Date) {
  await db.dataSource.query(
    `INSERT INTO action_results (run_trigger_at, run_id, action_index, action, status, reason, error_message, finished_at)
     VALUES ((SELECT trigger_at FROM runs WHERE id = $1), $1, $2, $3, 'skipped', $4, 'why', $5)`,
    [runId, index, JSON.stringify({ type }), reason, at],
  );
}

describe('messages not sent', () => {
  it('lists and counts customer messages skipped for an attention reason, and flags their runs', async () => {
    const greet = await run('greet');
    await skipped(greet, 0, 'send-message', 'needs_assignee', ago(1));
    await skipped(greet, 1, 'add-tag', 'needs_assignee', ago(1)); // not a message
    const capped = await run('promo');
    await skipped(capped, 0, 'send-template', 'policy_cap', ago(2));
    const byDesign = await run('split');
    await skipped(byDesign, 0, 'send-message', 'branch_not_taken', ago(1));
    const old = await run('greet');
    await skipped(old, 0, 'send-message', 'contact_blocked', ago(48));
    const repo = new ActionResultsRepository(db.dataSource.manager);
    const since = ago(24);
    expect(
      (await repo.views.skippedMessages({ ...MESSAGE_SKIP_KINDS, since }, 10)).map((s) => [
        s.runId,
        s.reason,
        s.laterDone,
      ]),
    ).toEqual([
      [greet, 'needs_assignee', []],
      [capped, 'policy_cap', []],
    ]);
    expect(await repo.views.countSkippedMessages({ ...MESSAGE_SKIP_KINDS, since })).toEqual({
      needs_assignee: 1,
      policy_cap: 1,
    });
    expect(await repo.views.countSkippedMessages({ ...MESSAGE_SKIP_KINDS, since, rule: 'promo' })).toEqual({
      policy_cap: 1,
    });
    const rows = (await new RunsRepository(db.dataSource.manager).views.list({
      skipsOf: MESSAGE_SKIP_KINDS,
      limit: 10,
    })) as { id: string; messageSkipped: boolean }[];
    const flag = new Map(rows.map((r) => [r.id, r.messageSkipped]));
    expect([flag.get(greet), flag.get(capped), flag.get(byDesign), flag.get(old)]).toEqual([
      true,
      true,
      false,
      true,
    ]);
  });

  it('counts them on the partial index IDX_action_results_message_skips', async () => {
    const plan = await db.dataSource.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query(
        `EXPLAIN SELECT count(*) FROM action_results a
          WHERE a.status = 'skipped' AND a.reason IN (${ATTENTION_INDEX_REASONS.map((r) => `'${r}'`).join(', ')})
            AND a.finished_at >= $1`, // as the repository writes it (the reasons as literals)
        [ago(24)],
      );
    });
    const text = plan.map((p: { 'QUERY PLAN': string }) => p['QUERY PLAN']).join('\n');
    expect(await planUsesIndex(db.dataSource, text, 'IDX_action_results_message_skips')).toBe(true);
  });

  it('lists an assignment no pool member could take (pool_full, pool_empty), not other assign skips', async () => {
    const since = new Date(NOW.getTime() + 3_600_000); // after the first case's rows
    const at = new Date(since.getTime() + 60_000);
    const full = await run('route-billing');
    await skipped(full, 0, 'assign', 'pool_full', at);
    const empty = await run('route-billing');
    await skipped(empty, 0, 'assign', 'pool_empty', at);
    const closed = await run('route-billing');
    await skipped(closed, 0, 'assign', 'outside_window', at); // a window skip of an assign: by design
    const same = await run('route-billing');
    await skipped(same, 0, 'assign', 'no_change', at);
    const repo = new ActionResultsRepository(db.dataSource.manager);
    const listed = await repo.views.skippedMessages({ ...MESSAGE_SKIP_KINDS, since }, 10);
    expect(listed.map((s) => [s.runId, s.reason]).sort()).toEqual(
      [
        [full, 'pool_full'],
        [empty, 'pool_empty'],
      ].sort(),
    );
    expect(await repo.views.countSkippedMessages({ ...MESSAGE_SKIP_KINDS, since })).toEqual({
      pool_full: 1,
      pool_empty: 1,
    });
    const rows = (await new RunsRepository(db.dataSource.manager).views.list({
      rule: 'route-billing',
      skipsOf: MESSAGE_SKIP_KINDS,
      limit: 10,
    })) as { id: string; messageSkipped: boolean }[];
    const flag = new Map(rows.map((r) => [r.id, r.messageSkipped]));
    expect([full, empty, closed, same].map((id) => flag.get(id))).toEqual([true, true, false, false]);
  });
});
