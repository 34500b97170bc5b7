// ActionResultsRepository on Postgres: a settled success is final. fail() and skip() used to be
// unconditional UPDATEs: were anything to throw after succeed(), a sent message went back to
// pending (and was sent again) or showed as failed.
import { randomUUID } from 'node:crypto';
import { ActionResultsRepository } from '../../../src/persistence/ledger/action-results.repository';
import { createTestDb, type TestDb } from '../../support/test-db';

jest.setTimeout(60_000);

let db: TestDb;
let repo: ActionResultsRepository;
beforeAll(async () => {
  db = await createTestDb();
  repo = new ActionResultsRepository(db.dataSource.manager);
});
afterAll(() => db.drop());

async function succeededAction(): Promise<{ runId: string; id: string }> {
  const [run] = await db.dataSource.query(
    `INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace, actions, priority)
     VALUES ($1, 'r', 'v', 's', 'c', 'running', '[]', '[]', 'interactive') RETURNING id`,
    [`event:${randomUUID()}`],
  );
  const [row] = await db.dataSource.query(
    `INSERT INTO action_results (run_trigger_at, run_id, action_index, action, status) VALUES ((SELECT trigger_at FROM runs WHERE id = $1), $1, 0, '{"type":"send-message"}', 'pending')
     RETURNING id`,
    [run.id],
  );
  await repo.succeed(row.id, 12, 'req-1');
  return { runId: run.id, id: row.id };
}

const statusOf = async (id: string) =>
  (await db.dataSource.query(`SELECT status, request_id FROM action_results WHERE id = $1`, [id]))[0];

const FAILURE = { code: 'network_error', message: 'socket hang up', status: null, requestId: null };

describe('fail() can never undo a success', () => {
  it.each(['pending', 'failed', 'dead', 'uncertain'] as const)(
    'leaves a succeeded action succeeded when fail() marks it %s',
    async (status) => {
      const { id } = await succeededAction();
      await repo.fail(id, status, FAILURE, 5);
      expect(await statusOf(id)).toEqual({ status: 'succeeded', request_id: 'req-1' });
    },
  );

  it('leaves a succeeded action succeeded when skip() or reopen() reaches it', async () => {
    const { runId, id } = await succeededAction();
    await repo.skip(id, 'outside_window', 'late');
    await repo.reopen([runId], ['dead', 'failed', 'succeeded']);
    expect(await statusOf(id)).toEqual({ status: 'succeeded', request_id: 'req-1' });
  });

  it('refuses to mark a succeeded action running again', async () => {
    const { id } = await succeededAction();
    await expect(repo.markRunning(id)).rejects.toThrow(/already succeeded/);
    expect(await statusOf(id)).toEqual({ status: 'succeeded', request_id: 'req-1' });
  });

  it('still records the failure of an action that did not succeed', async () => {
    const { runId } = await succeededAction();
    const [row] = await db.dataSource.query(
      `INSERT INTO action_results (run_trigger_at, run_id, action_index, action, status) VALUES ((SELECT trigger_at FROM runs WHERE id = $1), $1, 1, '{"type":"add-tag"}', 'running')
       RETURNING id`,
      [runId],
    );
    await repo.fail(row.id, 'dead', FAILURE, 5);
    expect((await statusOf(row.id)).status).toBe('dead');
  });
});
