// kill -9 while a message to a customer is in flight. A worker process sends a welcome template
// and dies (SIGKILL) while the CRM holds the answer; a new worker takes the run over. The action
// row is `running`, so the write may have happened: the new worker looks the message up instead of
// sending again. The customer holds exactly one message; the action ends `succeeded` (found) or
// `uncertain` (not found, for an operator), never a second send.
import { DataSource } from 'typeorm';
import { api } from '../../support/http';
import { crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { ensureBuilt, WorkerProcesses } from '../../support/worker-process';

jest.setTimeout(180_000);

const TEMPLATE_ROUTE = 'POST /v1/message-templates/send';

const RULES = {
  'welcome.yaml': `
rule: welcome
on: contact.created
if: { fact: contact.name, operator: matches, value: "^Crash" }
do:
  - send-template: { name: welcome, parameters: ["{{contact.name}}"], channel: Main WhatsApp }
    assign-first: round-robin
`,
};

describe('a worker killed with SIGKILL while a message is in flight', () => {
  let h: Harness;
  let db: DataSource;
  const workers = new WorkerProcesses();

  beforeAll(async () => {
    ensureBuilt();
    // The harness is the api process (webhook intake); only the spawned workers run actions.
    h = await startHarness({ rules: RULES, env: { ROLE: 'api' } });
    db = h.app.get(DataSource);
  });
  afterAll(async () => {
    workers.killAll();
    await h?.stop();
  });

  const fault = (spec: Record<string, unknown>) => api(h.sandboxUrl, 'POST', '/_sandbox/faults', spec);
  const sendCalls = async (): Promise<number> =>
    (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[TEMPLATE_ROUTE] ?? 0;
  const actionOf = async (contactId: string) =>
    (
      await db.query(
        `SELECT a.id, a.status, a.reason, a.error_code, a.error_message, a.attempts, r.status AS run_status FROM action_results a
           JOIN runs r ON r.id = a.run_id WHERE r.contact_id = $1 AND r.rule_id = 'welcome'`,
        [contactId],
      )
    )[0];
  const textsOf = async (contactId: string): Promise<string[]> => {
    const texts: string[] = [];
    for (const c of (await crm(h, 'GET', `/v1/conversations?contactId=${contactId}`)).body.data)
      for (const m of (await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data)
        texts.push(m.text);
    return texts;
  };

  /** A first worker starts the send and is killed once `inFlight` holds; a second one takes over. */
  const crashDuringSend = async (
    name: string,
    inFlight: (contactId: string, callsBefore: number) => Promise<boolean>,
  ) => {
    // No worker of an earlier case may take this run: only the one killed here, then its successor.
    workers.killAll();
    const first = workers.start(h, { CRM_TIMEOUT_MS: '60000' });
    await first.ready;
    const callsBefore = await sendCalls();
    const contact = await newContact(h, name);
    await eventually(
      async () =>
        (await actionOf(contact.id))?.status === 'running' && (await inFlight(contact.id, callsBefore)),
      60_000,
    );
    first.child.kill('SIGKILL');
    await workers.start(h).ready;
    const settled = await eventually(async () => {
      const row = await actionOf(contact.id);
      return !['pending', 'running'].includes(row.run_status) ? row : undefined;
    }, 90_000);
    return { contactId: contact.id as string, settled, callsBefore };
  };

  it('finds the message the CRM applied before the kill: succeeded, one message, one send call', async () => {
    // The sandbox applies the send at once and holds the answer past the kill.
    await fault({ kind: 'lost-answer', count: 1, latencyMs: 20_000, route: TEMPLATE_ROUTE });
    const { contactId, settled, callsBefore } = await crashDuringSend(
      'Crash Carla',
      async (id) => (await textsOf(id)).length > 0,
    );
    expect(settled).toMatchObject({
      status: 'succeeded',
      reason: 'found_after_unclear_outcome',
      run_status: 'succeeded',
    });
    expect(await textsOf(contactId)).toEqual(['Hello Crash Carla, welcome to Demo Co!']);
    expect((await sendCalls()) - callsBefore).toBe(1);
  });

  it('leaves a send it cannot find uncertain and never sends it again, even when it lands later', async () => {
    // The sandbox holds the request before handling it: the kill lands before the write, which the
    // CRM applies only after the new worker has looked for it.
    await fault({ kind: 'latency', count: 1, latencyMs: 30_000, route: TEMPLATE_ROUTE });
    const { contactId, settled, callsBefore } = await crashDuringSend(
      'Crash Chris',
      async (_id, callsBefore) => (await sendCalls()) > callsBefore,
    );
    expect(settled).toMatchObject({
      status: 'uncertain',
      error_code: 'interrupted',
      run_status: 'uncertain',
    });
    // The held request reaches the CRM after all: one message, still uncertain, one send call.
    expect(
      await eventually(async () => {
        const texts = await textsOf(contactId);
        return texts.length ? texts : undefined;
      }, 60_000),
    ).toEqual(['Hello Crash Chris, welcome to Demo Co!']);
    expect(await actionOf(contactId)).toMatchObject({ status: 'uncertain' });
    expect((await sendCalls()) - callsBefore).toBe(1);
  });
});
