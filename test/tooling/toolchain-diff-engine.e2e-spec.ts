// The issue's must-show "diff on a real change reports exactly the contacts that lose the action,
// checked against a replay through the engine itself": the same signed webhook events go through
// an engine running rule set A and through a fresh engine (its own database and Redis prefix,
// the same CRM) running B, A with a condition narrowed. The two ledgers say who got the action
// under A and not under B; `crm-rules diff --base <A>` on A's inbox export must name exactly them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { KEYS } from '../support/demo-fixture';
import { ADMIN_TOKEN, crm, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';
import { cli, git } from '../support/cli';
import { VIP_ON_UPDATE_RULE } from '../support/vip-rule';

const RULE_ID = 'tag-vip-on-update';
const RULE_A = VIP_ON_UPDATE_RULE.replace('rule: vip-on-update', `rule: ${RULE_ID}`);
// B: the same rule with its condition narrowed to the contacts whose name starts with "Keep".
const RULE_B = RULE_A.replace(
  '    - { fact: contact.isBlocked, operator: equal, value: false }\n',
  '    - { fact: contact.isBlocked, operator: equal, value: false }\n    - { fact: contact.name, operator: startsWith, value: Keep }\n',
);

const ENV = { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, RULES_WATCH: 'false' };

/** Every delivered event processed and decided by the rule, every run finished, actions included. */
async function settled(h: Harness, events: number): Promise<void> {
  const db = h.app.get(DataSource);
  let last: unknown;
  await eventually(async () => {
    const [row] = await db.query(
      `SELECT (SELECT count(*) FROM inbox_events WHERE status = 'processed')::int AS processed,
              -- the rule decided each event: a run, or (not matched, issue 35) the decision on the event
              ((SELECT count(*) FROM runs WHERE rule_id = $1) +
               (SELECT count(*) FROM inbox_events WHERE unmatched_rules IS NOT NULL))::int AS runs,
              (SELECT count(*) FROM runs WHERE status IN ('pending', 'running', 'waiting'))::int AS busy,
              (SELECT count(*) FROM action_results WHERE status IN ('pending', 'running'))::int AS acting`,
      [RULE_ID],
    );
    last = row;
    return row.processed === events && row.runs === events && row.busy === 0 && row.acting === 0;
  }, 30_000).catch(async (err: Error) => {
    const inbox = await db.query(`SELECT status, last_error, attempts FROM inbox_events`);
    throw new Error(`${err.message}; last ${JSON.stringify(last)}; inbox ${JSON.stringify(inbox)}`);
  });
}

/** From the engine's ledger: the contacts whose run of the rule added the tag. */
async function taggedByEngine(h: Harness): Promise<string[]> {
  const rows: { contact_id: string }[] = await h.app.get(DataSource).query(
    `SELECT DISTINCT r.contact_id FROM runs r JOIN action_results a ON a.run_id = r.id
      WHERE r.rule_id = $1 AND a.status = 'succeeded' ORDER BY r.contact_id`,
    [RULE_ID],
  );
  return rows.map((r) => r.contact_id).sort();
}

describe('crm-rules diff against a replay through the engine', () => {
  let a: Harness;
  let b: Harness | undefined;
  let repo: string;
  beforeAll(async () => {
    a = await startHarness({ rules: { 'vip.yaml': RULE_A }, subscribe: false, env: ENV });
    repo = mkdtempSync(join(tmpdir(), 'crm-rules-diff-engine-'));
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  it('names exactly the contacts the narrowed rule stops tagging in the engine', async () => {
    const contacts = [];
    for (const name of ['Keep Ana', 'Keep Bruno', 'Drop Carla', 'Drop Duarte', 'Drop Eva', 'Keep Filipa'])
      contacts.push(await newContact(a, `${name} ${Date.now()}`));
    const bodies = contacts.map((c) => JSON.stringify(contactEvent('contact.updated', c)));

    // Rule set A, through the engine.
    for (const body of bodies) expect((await deliver(a.url, body)).status).toBeLessThan(300);
    await settled(a, bodies.length);
    const underA = await taggedByEngine(a);
    const exported = await fetch(`${a.url}/admin/events/export`, {
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    expect(exported.status).toBe(200);
    const events = join(repo, 'events.ndjson');
    writeFileSync(events, await exported.text());

    // The CRM back as it was (A's tags removed), then the same signed events through a fresh
    // engine running B against the same CRM.
    const vip = (await crm(a, 'GET', '/v1/tags?limit=100')).body.data.find(
      (t: { name: string }) => t.name === 'vip',
    );
    for (const id of underA)
      expect((await crm(a, 'DELETE', `/v1/contacts/${id}/tags/${vip.id}`)).status).toBeLessThan(300);
    b = await startHarness({
      rules: { 'vip.yaml': RULE_B },
      subscribe: false,
      // A made a few dozen calls of the sandbox's 300/min: no need to wait out a window first.
      env: { ...ENV, CRM_BASE_URL: a.sandboxUrl, CRM_API_KEY: KEYS.full, CRM_BUDGET_COLD_START: 'false' },
    });
    for (const body of bodies) expect((await deliver(b.url, body)).status).toBeLessThan(300);
    await settled(b, bodies.length);
    const underB = await taggedByEngine(b);

    const lostInEngine = underA.filter((id) => !underB.includes(id));
    const gainedInEngine = underB.filter((id) => !underA.includes(id));
    // The engine did what the rules say (so the comparison below is not between two empty sets).
    expect(underA).toEqual(contacts.map((c) => c.id).sort());
    expect(lostInEngine).toEqual(
      contacts
        .filter((c) => c.name.startsWith('Drop'))
        .map((c) => c.id)
        .sort(),
    );

    // A committed in a rules repository, B in its working tree; diff offline from A's export.
    const rules = join(repo, 'rules');
    mkdirSync(rules);
    writeFileSync(join(rules, 'vip.yaml'), RULE_A);
    git(repo, 'init', '-q');
    git(repo, 'add', 'rules');
    git(repo, 'commit', '-qm', 'rule set A');
    writeFileSync(join(rules, 'vip.yaml'), RULE_B);
    const { code, out, err } = await cli(
      'diff',
      rules,
      '--base',
      'HEAD',
      '--events',
      events,
      '--format',
      'json',
    );
    expect([code, err]).toEqual([0, '']);
    const diff = JSON.parse(out);
    expect(diff.rules).toHaveLength(1);
    expect(diff.rules[0]).toMatchObject({ rule: RULE_ID, change: 'changed' });
    expect(diff.rules[0].lostContacts).toEqual(lostInEngine);
    expect(diff.rules[0].gainedContacts).toEqual(gainedInEngine);
  });
});
