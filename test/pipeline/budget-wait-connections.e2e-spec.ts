import { DataSource } from 'typeorm';
import { api } from '../support/http';
import { eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';

const TAG_ROUTE = 'POST /v1/contacts/:contactId/tags/:tagId';
const CONTACTS = 20;
const POOL = 4;

// Action jobs waiting for CRM budget must not hold Postgres connections: with a pool of 4 and 16
// jobs stuck behind an exhausted budget (1 call per minute), the intake still answers and a plain
// query still gets a connection. The per-contact exclusion is a lease row, renewed while they wait.
describe('action jobs waiting for CRM budget', () => {
  let h: Harness;
  let db: DataSource;

  beforeAll(async () => {
    h = await startHarness({
      rules: { 'vip.yaml': 'rule: vip\non: contact.updated\ndo:\n  - add-tag: vip\n' },
      subscribe: false,
      env: {
        CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        DATABASE_POOL_MAX: String(POOL),
        CRM_RATE_LIMIT: '1',
        CRM_RATE_WINDOW_MS: '60000',
        CRM_BUDGET_MAX_WAIT_MS: '120000',
      },
    });
    db = h.app.get(DataSource);
  });
  afterAll(() => h?.stop());

  const running = async () =>
    (await db.query(`SELECT count(*)::int AS n FROM runs WHERE rule_id = 'vip' AND status = 'running'`))[0].n;
  const leases = async (): Promise<{ contact_id: string; expires_at: Date }[]> =>
    db.query(`SELECT contact_id, expires_at FROM contact_leases WHERE expires_at > now()`);

  it('hold no connection: the intake answers 2xx and a plain query gets a connection', async () => {
    const contacts = [];
    for (let i = 0; i < CONTACTS; i++) contacts.push(await newContact(h, `Budget Wait ${i}`));
    for (const c of contacts)
      expect((await deliver(h.url, JSON.stringify(contactEvent('contact.updated', c)))).status).toBe(200);

    // Every worker slot (concurrency 16, 4 times the pool) has a job inside its run, waiting for budget.
    await eventually(async () => (await running()) >= 16, 30_000, 100);
    const writes = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[TAG_ROUTE] ?? 0;
    expect(writes).toBeLessThanOrEqual(1);

    // A new delivery is accepted and a plain query on the workers' own pool is served: the pool's
    // connectionTimeoutMillis (5 s) would make it throw if the waiting jobs held its 4 connections.
    const late = await newContact(h, 'Budget Wait late');
    expect((await deliver(h.url, JSON.stringify(contactEvent('contact.updated', late)))).status).toBe(200);
    expect(await db.query(`SELECT 1 AS ok`)).toEqual([{ ok: 1 }]);

    // Nothing of the engine sits in a transaction or holds an advisory lock while it waits. A
    // transaction of the late event may be between two statements right now (idle in transaction for
    // a few ms): one left open by a waiting job would be idle for the whole wait, hence "over 2 s".
    const [pg] = await db.query(
      `SELECT count(*) FILTER (WHERE state LIKE 'idle in transaction%'
                                 AND state_change < now() - interval '2 seconds')::int AS "inTransaction",
              (SELECT count(*)::int FROM pg_locks l JOIN pg_database d ON d.oid = l.database
                WHERE l.locktype = 'advisory' AND d.datname = current_database()) AS advisory
         FROM pg_stat_activity WHERE datname = current_database()`,
    );
    expect(pg).toEqual({ inTransaction: 0, advisory: 0 });

    // The exclusion is still there: one lease per waiting contact, renewed while the jobs wait.
    const first = await leases();
    expect(first.length).toBeGreaterThanOrEqual(16);
    await eventually(
      async () => {
        const now = new Map((await leases()).map((l) => [l.contact_id, l.expires_at.getTime()]));
        return first.every((l) => (now.get(l.contact_id) ?? 0) > l.expires_at.getTime());
      },
      20_000,
      200,
    );
    expect(await running()).toBeGreaterThanOrEqual(16);
  }, 120_000);
});
