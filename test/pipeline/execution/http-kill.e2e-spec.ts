// A worker killed with SIGKILL while 4 http-requests hang at the receiver (the default host
// concurrency, 4). Issue 30: the killed slots stayed held 120 s, longer than the retries, and the
// runs ended `dead host_limited`. Now a slot is a lease renewed by a heartbeat: the dead process
// stops renewing, its slots come back within seconds, and the next worker re-sends each call with
// its original Idempotency-Key; the receiver applies each key once.
import { DataSource } from 'typeorm';
import { eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { startReceiver, type Receiver } from '../../support/http-receiver';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';
import { ensureBuilt, WorkerProcesses } from '../../support/worker-process';

jest.setTimeout(300_000);

const SIGNING_SECRET = 'engine-signing-secret-0123456789abcdef';
const IN_FLIGHT = 4;

describe('http-request calls in flight when their worker is killed', () => {
  let h: Harness;
  let erp: Receiver;
  const workers = new WorkerProcesses();
  const egressEnv = {
    HTTP_ACTION_ALLOWED_HOSTS: '127.0.0.2',
    HTTP_ACTION_ALLOW_PRIVATE: '127.0.0.2/32',
    HTTP_ACTION_SIGNING_SECRET: SIGNING_SECRET,
  };

  beforeAll(async () => {
    ensureBuilt();
    // The first request of each key is applied and never answered (held): the worker is mid-call.
    erp = await startReceiver('127.0.0.2', SIGNING_SECRET, { '/orders/': () => 'hold' });
    h = await startHarness({
      rules: {
        'killed.yaml': `
rule: killed
on: contact.updated
if: { fact: contact.name, operator: matches, value: "^Killed" }
do:
  - http-request: { name: notify, url: "${erp.url}/orders/{{contact.id}}", body: { contactId: "{{contact.id}}" }, timeout: 20s }
`,
      },
      subscribe: false,
      env: { ROLE: 'api', CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, ...egressEnv },
    });
  });
  afterAll(async () => {
    workers.killAll();
    await h?.stop();
    await erp?.close();
  });

  it('every call arrives after the restart with its original key, applied once', async () => {
    const first = workers.start(h, egressEnv);
    await first.ready;
    const contacts = [];
    for (let i = 0; i < IN_FLIGHT; i++) contacts.push(await newContact(h, `Killed ${i}`));
    for (const c of contacts)
      expect((await deliver(h.url, JSON.stringify(contactEvent('contact.updated', c)))).status).toBe(200);
    await eventually(async () => (erp.requests.length === IN_FLIGHT ? true : undefined), 60_000, 100);
    first.child.kill('SIGKILL');
    const heldKeys = erp.requests.map((r) => r.key);

    await workers.start(h, egressEnv).ready;
    const db = h.app.get(DataSource);
    const rows = await eventually(
      async () => {
        const r: { run_status: string; status: string; error_code: string | null }[] = await db.query(
          `SELECT r.status AS run_status, a.status, a.error_code FROM runs r JOIN action_results a ON a.run_id = r.id
            WHERE r.rule_id = 'killed'`,
        );
        return r.length === IN_FLIGHT &&
          r.every((x) => !['pending', 'running', 'waiting'].includes(x.run_status))
          ? r
          : undefined;
      },
      240_000,
      250,
    );
    expect(rows.map((r) => [r.run_status, r.status])).toEqual(
      new Array(IN_FLIGHT).fill(['succeeded', 'succeeded']),
    );
    // Each call was sent again after the restart, with the key of its first (killed) attempt.
    for (const key of heldKeys) {
      const sent = erp.requests.filter((r) => r.key === key);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(sent.at(-1)?.answered).toBe(200);
      expect(erp.applied.get(key!)).toBe(1);
    }
    expect(new Set(erp.requests.map((r) => r.key))).toEqual(new Set(heldKeys));
  });
});
