// The console's page for one stored event: an event no rule matched keeps only its decision (no
// runs), and the page rebuilds why each listening rule matched or not; a matched event links its run.
import { Client } from 'pg';
import { eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { consoleLogIn } from '../../support/console-client';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';

const RULE = [
  'rule: vip-on-update',
  'on: contact.updated',
  'if:',
  '  all:',
  '    - { fact: contact.name, operator: equal, value: Grace }',
  'do:',
  '  - add-tag: vip',
  '',
].join('\n');

describe('the console page of one event', () => {
  let h: Harness;
  let db: Client;
  beforeAll(async () => {
    h = await startHarness({
      rules: { 'vip.yaml': RULE },
      subscribe: false,
      quiet: true,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, RULES_WATCH: 'false' },
    });
    db = new Client({ connectionString: h.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await h?.stop();
  });

  /** The page as text: mustache escapes the slashes of links written from view values. */
  const get = async (path: string) => {
    const page = await (await consoleLogIn(h.url)).get(path);
    return { status: page.status, html: page.html.replace(/&#x2F;/g, '/') };
  };

  async function processed(contactId: string): Promise<{ id: string; unmatched: unknown }> {
    return eventually(async () => {
      const { rows } = await db.query(
        `SELECT id, inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched FROM inbox_events WHERE contact_id = $1 AND status = 'processed'`,
        [contactId],
      );
      return rows[0];
    });
  }

  it('says no rule matched, and why, for an event that stored no run', async () => {
    const ada = await newContact(h, 'Ada');
    expect((await deliver(h.url, JSON.stringify(contactEvent('contact.updated', ada)))).status).toBe(200);
    const event = await processed(ada.id);
    expect(event.unmatched).toMatchObject({ rules: 1 });
    // Its payload is kept packed (issue 35 goal 1); the page and its explain read it all the same.
    const { rows } = await db.query(
      `SELECT payload IS NULL AS gone, octet_length(payload_packed) AS packed FROM inbox_events WHERE id = $1`,
      [event.id],
    );
    expect(rows[0]).toMatchObject({ gone: true, packed: expect.any(Number) });
    const page = await get(`/console/events/${event.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('no rule matched: 1 rule(s) of rule set');
    expect(page.html).toMatch(/vip-on-update<\/a> @\S+ <span class="badge muted">did not match/);
    // The explain line names the condition and the value it saw.
    expect(page.html).toMatch(/contact\.name[^<]*Ada/);
    expect(page.html).toContain('none stored');
    // The contact's timeline links the delivery to this page.
    const timeline = await get(`/console/contacts/${ada.id}`);
    expect(timeline.html).toContain(`href="/console/events/${event.id}"`);
  });

  it('links a matched rule to its run, and the run links back', async () => {
    const grace = await newContact(h, 'Grace');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', grace)));
    const event = await processed(grace.id);
    expect(event.unmatched).toBeNull();
    const [run] = (await eventually(async () => {
      const { rows } = await db.query(`SELECT id FROM runs WHERE trigger_key = $1`, [`event:${event.id}`]);
      return rows.length ? rows : undefined;
    })) as { id: string }[];
    const page = await get(`/console/events/${event.id}`);
    expect(page.html).toContain('a rule matched');
    expect(page.html).toContain(`href="/console/runs/${run.id}"`);
    expect(page.html).toMatch(/<span class="badge ok">matched<\/span> <a class="run-link"/);
    const runPage = await get(`/console/runs/${run.id}`);
    expect(runPage.html).toContain(`href="/console/events/${event.id}"`);
  });

  it('lists events by decision, kind and contact name, each linked to its page', async () => {
    const listed = async (query: string) => {
      const page = await get(`/console/events?${query}`);
      return {
        status: page.status,
        ids: [...page.html.matchAll(/href="\/console\/events\/([0-9a-f-]{36})"/g)].map((m) => m[1]),
      };
    };
    const all = await db.query(
      `SELECT id, contact_id, inbox_decision(unmatched, unmatched_set, unmatched_rules) AS unmatched FROM inbox_events ORDER BY received_at`,
    );
    const unmatched = all.rows.filter((r) => r.unmatched).map((r) => r.id);
    const matched = all.rows.filter((r) => !r.unmatched).map((r) => r.id);
    expect(unmatched.length).toBeGreaterThan(0);
    expect(matched.length).toBeGreaterThan(0);
    expect((await listed('decided=unmatched')).ids.sort()).toEqual([...unmatched].sort());
    expect((await listed('decided=matched&type=contact.updated')).ids.sort()).toEqual([...matched].sort());
    expect((await listed('type=message.received')).ids).toEqual([]);
    // By name, as the mirror knows the contact (the events' payloads put Grace there).
    const grace = await listed('contact=Grace');
    expect(grace.ids).toEqual(matched);
    const refused = await listed('status=done');
    expect([refused.status, refused.ids]).toEqual([400, []]);
  });

  it('refuses without a session, and answers 404 for a malformed or unknown id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const anonymous = await fetch(`${h.url}/console/events/${unknown}`, { redirect: 'manual' });
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([303, '/console/login']);
    const client = await consoleLogIn(h.url);
    expect((await client.get('/console/events/not-a-uuid')).status).toBe(404);
    expect((await client.get(`/console/events/${unknown}`)).status).toBe(404);
  });
});
