// An ask-again flow against the sandbox (issue 34, goal 4), the engine in worker processes: a
// `repeat: 3` menu asks, each answer that is not 1 asks again, the third wrong answer takes the
// `exhausted` arm; each question goes out once, although the worker is killed (-9) and another
// started while the run waits for the second answer. A right answer calls a named step list
// (another file), whose steps run as the rule's own.
import { DataSource } from 'typeorm';
import { DEMO } from '../../support/demo-fixture';
import { api } from '../../support/http';
import { crm, eventually, newContact, Harness, startHarness } from '../../support/engine-harness';
import { ensureBuilt, WorkerProcesses, type WorkerProcess } from '../../support/worker-process';

const inbound = `{ fact: message.isOutgoing, operator: equal, value: false }`;
const QUESTION = 'Reply 1 for billing, 2 for orders';
const RULES = `
rule: ask-again-menu
on: message.created
if: { all: [${inbound}, { fact: contact.name, operator: startsWith, value: Again }] }
once: per-contact
do:
  - repeat: 3
    do:
      - send-message: '${QUESTION}'
      - wait: 1h
        until: { event: message.created, where: ${inbound}, same: conversation }
        on-event:
          - switch:
              cases:
                billing:
                  if: { fact: message.text, operator: equal, value: '1' }
                  do: [{ call: hand-off, with: { team: Billing } }]
              default: [again]
        on-timeout: [{ add-tag: menu-unanswered }]
    exhausted:
      - add-tag: needs-human
`;
const STEPS = `
steps: hand-off
params: [team]
do:
  - add-tag: handed-off
  - send-message: 'The {{with.team}} team will answer within 4 hours'
`;

interface RunView {
  id: string;
  status: string;
  timeline: { step: string; label?: string }[];
}

describe('ask again, at most its maximum, end to end', () => {
  let h: Harness;
  let db: DataSource;
  const workers = new WorkerProcesses();
  let live: WorkerProcess | undefined;

  beforeAll(async () => {
    ensureBuilt();
    h = await startHarness({
      rules: { 'menu.yaml': RULES, 'steps-hand-off.yaml': STEPS },
      env: { ROLE: 'api' },
    });
    db = h.app.get(DataSource);
    for (const name of ['needs-human', 'handed-off', 'menu-unanswered'])
      expect([201, 409]).toContain((await crm(h, 'POST', '/v1/tags', { name })).status);
    live = workers.start(h);
    await live.ready;
  });
  afterAll(async () => {
    workers.killAll();
    await h?.stop();
  });

  const runOf = async (contactId: string): Promise<RunView | undefined> =>
    (
      await db.query(
        `SELECT id, status, timeline FROM runs WHERE rule_id = 'ask-again-menu' AND contact_id = $1
          AND status <> 'not_matched' ORDER BY created_at`,
        [contactId],
      )
    )[0];
  const sent = async (conversationId: string) =>
    (
      (await crm(h, 'GET', `/v1/messages?conversationId=${conversationId}&limit=100`)).body.data as {
        text: string | null;
        isOutgoing: boolean;
      }[]
    )
      .filter((m) => m.isOutgoing)
      .map((m) => m.text);
  const receive = async (contactId: string, text: string) => {
    const res = await api(h.sandboxUrl, 'POST', '/_sandbox/inbound-message', { contactId, text });
    expect(res.status).toBe(201);
    return res.body as { conversation: { id: string } };
  };
  /** The run waits for an answer after its `n`th question. */
  const asked = (contactId: string, conversationId: string, n: number) =>
    eventually(
      async () => {
        const run = await runOf(contactId);
        const questions = (await sent(conversationId)).filter((t) => t === QUESTION).length;
        return run?.status === 'waiting' && questions === n ? run : undefined;
      },
      40_000,
      100,
    );
  const finished = (contactId: string) =>
    eventually(
      async () => {
        const run = await runOf(contactId);
        return run && ['succeeded', 'failed', 'cancelled'].includes(run.status) ? run : undefined;
      },
      40_000,
      100,
    );
  const tags = async (contactId: string) =>
    ((await crm(h, 'GET', `/v1/contacts/${contactId}`)).body.tags as { name: string }[]).map((t) => t.name);
  const path = (run: RunView) => run.timeline.filter((e) => e.step === 'branch').map((e) => e.label);

  it('three wrong answers: asked three times, once each, then the exhausted arm', async () => {
    const contact = await newContact(h, 'Again Alma', { assigneeId: DEMO.members.ana });
    const { conversation } = await receive(contact.id, 'hi');
    await asked(contact.id, conversation.id, 1);
    await receive(contact.id, 'hello?');
    await asked(contact.id, conversation.id, 2);
    // The worker dies while the run waits for the second answer; the next one picks it up.
    const exited = new Promise((resolve) => live!.child.once('exit', resolve));
    live!.child.kill('SIGKILL');
    await exited;
    live = workers.start(h);
    await live.ready;
    await receive(contact.id, '4');
    await asked(contact.id, conversation.id, 3);
    await receive(contact.id, 'what?');
    const run = await finished(contact.id);
    expect(run.status).toBe('succeeded');
    expect(path(run)).toEqual([
      'on-event',
      'default',
      'repeat:2',
      'on-event',
      'default',
      'repeat:3',
      'on-event',
      'default',
      'exhausted',
    ]);
    expect(await sent(conversation.id)).toEqual([QUESTION, QUESTION, QUESTION]);
    expect(await tags(contact.id)).toContain('needs-human');
    expect(await tags(contact.id)).not.toContain('handed-off');
  }, 180_000);

  it('a right second answer runs the called step list and asks no more', async () => {
    const contact = await newContact(h, 'Again Bruno', { assigneeId: DEMO.members.ana });
    const { conversation } = await receive(contact.id, 'hi');
    await asked(contact.id, conversation.id, 1);
    await receive(contact.id, 'billing please');
    await asked(contact.id, conversation.id, 2);
    await receive(contact.id, '1');
    const run = await finished(contact.id);
    expect(run.status).toBe('succeeded');
    expect(path(run)).toEqual(['on-event', 'default', 'repeat:2', 'on-event', 'case:billing']);
    // The sandbox lists messages newest first: compared as a set with counts.
    expect((await sent(conversation.id)).sort()).toEqual(
      [QUESTION, QUESTION, 'The Billing team will answer within 4 hours'].sort(),
    );
    expect(await tags(contact.id)).toContain('handed-off');
    expect(await tags(contact.id)).not.toContain('needs-human');
  }, 120_000);
});
