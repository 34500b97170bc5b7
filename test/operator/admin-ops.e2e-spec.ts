import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  admin,
  ADMIN_TOKEN,
  crm,
  eventually,
  Harness,
  newContact,
  startHarness,
} from '../support/engine-harness';
import { api } from '../support/http';
import { VIP_ON_UPDATE_RULE } from '../support/vip-rule';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';

const RULE = VIP_ON_UPDATE_RULE;

describe('admin API, health and metrics as a user would try them', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rules: { 'vip.yaml': RULE },
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, CRM_MAX_RETRIES: '1', RULES_WATCH: 'false' },
    });
  });
  afterAll(async () => h?.stop());

  it('refuses admin calls without the token', async () => {
    expect((await api(h.url, 'GET', '/admin/runs')).status).toBe(401);
    expect((await api(h.url, 'GET', '/admin/runs', undefined, { 'x-admin-token': 'wrong' })).status).toBe(
      401,
    );
    expect((await api(h.url, 'GET', '/admin/queues')).status).toBe(401);
  });

  it("refuses an event's explain without the token, for a malformed id, and for an unknown event", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await api(h.url, 'GET', `/admin/events/${unknown}/explain`)).status).toBe(401);
    expect((await admin(h, 'GET', '/admin/events/not-a-uuid/explain')).status).toBe(400);
    const missing = await admin(h, 'GET', `/admin/events/${unknown}/explain`);
    expect([missing.status, missing.body.message]).toEqual([404, `event ${unknown} not found`]);
  });

  // Found by the request fuzz: GET /admin/sweeps/%00 reached Postgres, which cannot hold U+0000
  // in text, and answered 500. Every route now refuses it before its handler (RefuseNulPipe).
  it('refuses U+0000 in a parameter, the query or a body as bad input, not a 500', async () => {
    const param = await admin(h, 'GET', '/admin/sweeps/%00');
    expect([param.status, param.body.message]).toEqual([
      400,
      `the request's param "ruleId" holds U+0000, which no field accepts`,
    ]);
    expect((await admin(h, 'GET', '/admin/sweeps/sweep-rule?limit=%00')).status).toBe(400);
    expect((await admin(h, 'POST', '/admin/actions/retry-dead', { runId: 'a\u0000' })).status).toBe(400);
    expect((await admin(h, 'GET', '/admin/sweeps/sweep-rule')).status).toBe(200);
    // Without a credential the answer is still 401: the access guard runs before any pipe.
    expect((await api(h.url, 'GET', '/admin/sweeps/%00')).status).toBe(401);
  });

  it('takes state-changing calls with X-Admin-Token only, and never from another site', async () => {
    const basic = `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}`;
    const reload = (headers: Record<string, string>) =>
      api(h.url, 'POST', '/admin/rules/reload', {}, headers);
    expect((await reload({ authorization: `Bearer ${ADMIN_TOKEN}` })).status).toBe(401);
    expect((await reload({ authorization: basic })).status).toBe(401);
    expect((await reload({ 'x-admin-token': ADMIN_TOKEN, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await reload({ 'x-admin-token': ADMIN_TOKEN, origin: 'http://evil.test' })).status).toBe(403);
    expect((await reload({ 'x-admin-token': ADMIN_TOKEN })).status).toBe(201);
    // Reading takes a Bearer token too; basic auth opens nothing (the queue board takes an admin's
    // console session: no browser prompt keeps a token).
    expect(
      (await api(h.url, 'GET', '/admin/rules', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` })).status,
    ).toBe(200);
    expect((await api(h.url, 'GET', '/admin/rules', undefined, { authorization: basic })).status).toBe(401);
    expect((await api(h.url, 'GET', '/admin/queues', undefined, { authorization: basic })).status).toBe(401);
  });

  it('tells anyone only up or down on /health', async () => {
    const health = await api(h.url, 'GET', '/health');
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(Object.keys(health.body)).toEqual(['status']);
  });

  it('reports health of Postgres, Redis and the rule set to the admin', async () => {
    const health = await admin(h, 'GET', '/health?detail=full');
    expect(health.status).toBe(200);
    expect(health.body.info).toEqual(
      expect.objectContaining({
        postgres: { status: 'up' },
        redis: { status: 'up' },
        rules: expect.objectContaining({ status: 'up', ruleCount: 1 }),
      }),
    );
  });

  it('lists runs, shows one with its explain trace, and replays its event', async () => {
    const contact = await newContact(h, 'Ada Admin');
    const reply = await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const run = await eventually(async () => {
      const list = await admin(h, 'GET', `/admin/runs?contact=${contact.id}&rule=vip-on-update`);
      return list.body.data.find((r: { status: string }) => r.status === 'succeeded');
    });
    const shown = await admin(h, 'GET', `/admin/runs/${run.id}`);
    expect(shown.body.trace).toEqual([
      expect.objectContaining({
        fact: 'contact',
        operator: 'equal',
        expected: false,
        actual: false,
        result: true,
      }),
    ]);
    expect(shown.body.actionResults).toEqual([
      expect.objectContaining({ status: 'succeeded', action: { type: 'add-tag', tag: 'vip' } }),
    ]);

    const replay = await admin(h, 'POST', `/admin/events/${reply.json.id}/replay`);
    expect(replay.status).toBe(201);
    // The replayed run finds the tag already there: skipped as no_change, no CRM write.
    const replayed = await eventually(async () => {
      const list = await admin(h, 'GET', `/admin/runs?contact=${contact.id}`);
      return list.body.data.length === 2
        ? list.body.data.find((r: { id: string }) => r.id !== run.id)
        : undefined;
    });
    const detail = await eventually(async () => {
      const d = await admin(h, 'GET', `/admin/runs/${replayed.id}`);
      return d.body.status === 'succeeded' ? d.body : undefined;
    });
    expect(detail.actionResults[0]).toEqual(
      expect.objectContaining({ status: 'skipped', reason: 'no_change' }),
    );
  });

  it('records a CRM failure as dead with its code and requestId, and retries it on request', async () => {
    const contact = await newContact(h, 'Dead Dan');
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'error500',
      count: 1000,
      route: 'POST /v1/contacts/:contactId/tags/:tagId',
    });
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const dead = await eventually(
      async () => {
        const list = await admin(h, 'GET', `/admin/runs?contact=${contact.id}&status=dead`);
        return list.body.data[0];
      },
      45000,
      250,
    );
    const detail = (await admin(h, 'GET', `/admin/runs/${dead.id}`)).body;
    expect(detail.actionResults[0]).toEqual(
      expect.objectContaining({
        status: 'dead',
        errorCode: 'internal_error',
        httpStatus: 500,
        requestId: expect.stringMatching(/^req_/),
      }),
    );
    await api(h.sandboxUrl, 'DELETE', '/_sandbox/faults');
    expect((await admin(h, 'POST', '/admin/actions/retry-dead', {})).body).toEqual({
      retried: 1,
      refused: [],
    });
    await eventually(
      async () => (await admin(h, 'GET', `/admin/runs/${dead.id}`)).body.status === 'succeeded',
    );
    const fresh = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body;
    expect(fresh.tags.map((t: { name: string }) => t.name)).toContain('vip');
  }, 60000);

  it('keeps the last good rule set when a reload finds a broken file', async () => {
    const before = (await admin(h, 'GET', '/admin/rules')).body;
    writeFileSync(
      join(h.rulesDir, 'broken.yaml'),
      'rule: broken\non: contact.updatd\ndo:\n  - add-tagg: x\n',
    );
    const reload = await admin(h, 'POST', '/admin/rules/reload');
    expect(reload.body.ok).toBe(false);
    expect(
      reload.body.problems.map((p: { file: string; line: number }) => `${p.file.split('/').pop()}:${p.line}`),
    ).toEqual(expect.arrayContaining(['broken.yaml:2', 'broken.yaml:4']));
    const after = (await admin(h, 'GET', '/admin/rules')).body;
    expect(after.status.version).toBe(before.status.version);
    expect(after.problems.length).toBeGreaterThan(0);

    // The old set still runs.
    const contact = await newContact(h, 'Still Running');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    await eventually(async () =>
      (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags.some(
        (t: { name: string }) => t.name === 'vip',
      ),
    );
  });

  it('exposes Prometheus metrics for events, runs, actions, queues and the budget', async () => {
    /** The samples of one metric (not its # HELP line), each with its labels and value. */
    const scrape = async () => {
      const text = await (
        await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).text();
      expect(text).not.toContain('sk_demo_full');
      return (name: string, labels: Record<string, string> = {}) =>
        text
          .split('\n')
          .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
          .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
          .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
    };
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const before = await scrape();
    const contact = await newContact(h, 'Metered Mia');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    await eventually(async () =>
      (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags.some(
        (t: { name: string }) => t.name === 'vip',
      ),
    );
    // The counters moved with that event, its run and its action (the action is counted as it
    // finishes, a moment after the tag is visible).
    const after = await eventually(async () => {
      const now = await scrape();
      const moved = (name: string, labels: Record<string, string>) =>
        sum(now(name, labels)) > sum(before(name, labels));
      return moved('crmr_webhook_events_total', { outcome: 'accepted' }) &&
        moved('crmr_runs_total', { status: 'pending', rule: 'vip-on-update' }) &&
        moved('crmr_actions_total', { type: 'add-tag', status: 'succeeded' })
        ? now
        : undefined;
    });
    // Gauges and counters with real samples, not only their # HELP line.
    for (const queue of ['events', 'actions'])
      expect(after('crmr_queue_jobs', { queue }).length).toBeGreaterThan(0);
    const tokens = after('crmr_budget_tokens');
    expect(tokens.length).toBeGreaterThan(0);
    expect(Math.min(...tokens)).toBeGreaterThan(0);
    expect(after('crmr_crm_429_total')).toHaveLength(1);
  });
});
