import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { CrmGateway } from '../../../src/outbound/crm-gateway/crm-gateway.service';
import { admin, crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { DEMO } from '../../support/demo-fixture';
import { api } from '../../support/http';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';
import { launchBrowser, logIn, screenshot, watchSessionValues } from './browser';
import { capturedLogging, LogCapture } from './log-capture';
import { CONSOLE_RULES as RULES } from './console-rules';

describe('operator console in a real browser', () => {
  let h: Harness;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const logs = new LogCapture(); // every engine log line of the suite, searched at its end
  let sessionValues: () => Promise<string[]>;

  beforeAll(async () => {
    [h, browser] = await Promise.all([
      startHarness({
        ...capturedLogging(logs, {
          CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
          CRM_MAX_RETRIES: '1',
          RULES_WATCH: 'false',
        }),
        rules: RULES,
        subscribe: false,
      }),
      launchBrowser(),
    ]);
    context = await browser.newContext();
    sessionValues = watchSessionValues(context);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('refuses a wrong token, logs in with the right one, and keeps the token out of the cookie', async () => {
    await page.goto(`${h.url}/console/runs`);
    await page.waitForURL(/\/console\/login$/);
    await page.fill('input[name=token]', 'not-the-token');
    await page.click('#token-login button[type=submit]');
    await page.getByRole('alert').filter({ hasText: 'not the admin token' }).waitFor();
    await logIn(page, h.url);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'crmr_console')!;
    expect(session).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Strict' }));
    expect(JSON.stringify(cookies)).not.toContain('test-admin-token');
    // A state-changing request without the page's CSRF token is refused even with the cookie.
    const forged = await page.evaluate(async () => {
      const res = await fetch('/console/rules/vip-on-update/control', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'change=pause',
      });
      return res.status;
    });
    expect(forged).toBe(403);
  });

  it("finds a contact's timeline after a rule and a sweep acted, and reads the run's trace", async () => {
    const contact = await newContact(h, 'Tina Timeline');
    const event = JSON.stringify(contactEvent('contact.updated', contact));
    await deliver(h.url, event);
    await deliver(h.url, event); // a redelivery: listed as a duplicate
    await eventually(async () => {
      const runs = await admin(h, 'GET', `/admin/runs?contact=${contact.id}&status=succeeded`);
      return runs.body.data.length === 1;
    });
    // The CRM tells the engine about its own write (the webhook a subscription would bring).
    const tagged = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body;
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', tagged)));
    await eventually(async () => {
      const runs = await admin(h, 'GET', `/admin/runs?contact=${contact.id}&status=suppressed`);
      return runs.body.data.length === 1;
    });
    expect((await admin(h, 'POST', '/admin/rules/vip-sweep/sweep')).status).toBe(202);
    await eventually(async () => {
      const runs = await admin(h, 'GET', `/admin/runs?contact=${contact.id}&rule=vip-sweep&status=succeeded`);
      return runs.body.data.length === 1;
    }, 30_000);
    await page.goto(`${h.url}/console/contacts`);
    await page.fill('input[name=id]', contact.id);
    await page.click('form.filters button');
    await page.waitForURL(/\/console\/contacts\/.+/);
    const steps = page.locator('ol.timeline li.step');
    const text = await page.locator('ol.timeline').innerText();
    const order = [
      'received contact.updated',
      'mirror updated (engine write)',
      'vip-on-update matched',
      'CRM add-tag',
      'vip-on-update: add-tag "vip" done',
      'duplicate delivery of contact.updated',
      'held back: own_write_loop',
      'sweep of vip-sweep included the contact',
      'vip-sweep: add-tag "thanked" done',
    ];
    for (const step of order) expect(text).toContain(step);
    // Every step carries its time, and the list is in time order.
    const times = await steps.locator('time').allInnerTexts();
    expect(times.length).toBe(await steps.count());
    expect([...times].sort()).toEqual(times);
    expect(text).toContain('vip-on-update matched');
    expect(text).toMatch(/vip-on-update: add-tag "vip" done/);
    await screenshot(page, 'timeline');

    await page.getByRole('link', { name: 'vip-on-update matched' }).first().click();
    await page.waitForURL(/\/console\/runs\/[0-9a-f-]{36}$/);
    const trace = await page.locator('ul.trace').innerText();
    expect(trace).toContain('✔ all');
    expect(trace).toContain('✔ contact.isBlocked equal false: saw false');
    expect(trace).toContain('✔ contact.name notEqual "Nobody": saw "Tina Timeline"');
    const action = await page.locator('table.actions tbody tr').first().innerText();
    expect(action).toContain('add-tag "vip"');
    expect(action).toContain('succeeded');
    await screenshot(page, 'run');
  });

  it('pauses a rule from the rules page, and the next event records paused', async () => {
    await page.goto(`${h.url}/console/rules`);
    const row = page.locator('tr[data-rule="vip-on-update"]');
    await row.locator('input[name=note]').fill('<b>investigating</b>');
    await row.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(/\/console\/rules\?done=/);
    await row.locator('.badge', { hasText: 'paused' }).waitFor();
    const audit = await page.locator('table.audit tbody tr').first().innerText();
    expect(audit).toContain('vip-on-update');
    expect(audit).toContain('pause');
    expect(audit).toContain('<b>investigating</b>'); // shown as text, not markup
    await screenshot(page, 'rules');

    const contact = await newContact(h, 'Paula Paused');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    await page.goto(`${h.url}/console/runs?contact=${contact.id}`);
    await eventually(async () => {
      await page.reload();
      return (await page.locator('table.runs tbody .badge').allInnerTexts()).includes('paused');
    });
    const tags = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body.tags;
    expect(tags.map((t: { name: string }) => t.name)).not.toContain('vip');
    await screenshot(page, 'runs');

    await page.goto(`${h.url}/console/rules`);
    await row.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(/\/console\/rules\?done=/);
    await row.getByRole('button', { name: 'Pause' }).waitFor();
  });

  it('retries a dead action from the failures page, after a confirmation', async () => {
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'error500',
      count: 1000,
      route: 'POST /v1/contacts/:contactId/tags/:tagId',
    });
    const contact = await newContact(h, 'Dora Dead');
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', contact)));
    const dead = await eventually(
      async () => (await admin(h, 'GET', `/admin/runs?contact=${contact.id}&status=dead`)).body.data[0],
      45_000,
      250,
    );
    await api(h.sandboxUrl, 'DELETE', '/_sandbox/faults');
    await page.goto(`${h.url}/console/failures?status=dead`);
    const row = page.locator(`tr[data-run="${dead.id}"]`);
    expect(await row.innerText()).toContain('internal_error');
    await screenshot(page, 'failures');
    await row.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: /Confirm: Retry 1 run/ }).waitFor();
    await page.getByRole('button', { name: /Retry 1 run/ }).click();
    await page.getByRole('status').filter({ hasText: '1 run(s) queued again' }).waitFor();
    await eventually(
      async () => (await admin(h, 'GET', `/admin/runs/${dead.id}`)).body.status === 'succeeded',
      30_000,
    );
  }, 90_000);

  it('resolves an uncertain message from the failures page: sent again once, after a confirmation', async () => {
    // A 500 on the send proves nothing either way: the engine looks for the message, does not find
    // it and leaves the action uncertain for an operator instead of sending it again by itself.
    await api(h.sandboxUrl, 'POST', '/_sandbox/faults', {
      kind: 'error500',
      count: 1,
      route: 'POST /v1/messages',
    });
    const member = (await crm(h, 'GET', '/v1/users')).body.data[0].id;
    const contact = await newContact(h, 'Una Unsure', { assigneeId: member });
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', { ...contact, notes: 'send' })));
    const uncertain = await eventually(
      async () => (await admin(h, 'GET', `/admin/runs?contact=${contact.id}&status=uncertain`)).body.data[0],
      45_000,
      250,
    );
    await page.goto(`${h.url}/console/failures?status=uncertain`);
    const row = page.locator(`tr[data-run="${uncertain.id}"]`);
    await row.getByRole('button', { name: 'Send again' }).click();
    await page.getByRole('heading', { name: /Confirm: Send again/ }).waitFor();
    await page.getByRole('button', { name: 'Send again' }).click();
    await page.getByRole('status').filter({ hasText: 'send-again' }).waitFor();
    await eventually(
      async () => (await admin(h, 'GET', `/admin/runs/${uncertain.id}`)).body.status === 'succeeded',
      30_000,
    );
    const conversations = (await crm(h, 'GET', `/v1/conversations?contactId=${contact.id}`)).body.data;
    const texts: string[] = [];
    for (const c of conversations)
      texts.push(
        ...(await crm(h, 'GET', `/v1/messages?conversationId=${c.id}`)).body.data.map(
          (m: { text: string }) => m.text,
        ),
      );
    expect(texts).toEqual(['Hello Una Unsure']);
  }, 90_000);

  it('shows the overview with live numbers', async () => {
    await page.goto(`${h.url}/console`);
    const updated = await page.locator('#overview').getAttribute('data-updated');
    // Each server-sent sample re-stamps the panel (live.js).
    await eventually(async () => (await page.locator('#overview').getAttribute('data-updated')) !== updated);
    expect(Number(await page.locator('[data-live="runs.succeeded"]').innerText())).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'overview');
  });

  it('counts the events stored and not yet processed, whatever the jobs that carry them', async () => {
    const db = h.app.get(DataSource);
    // Received "in an hour": the reconciler leaves it alone while the overview counts it.
    const [{ id }] = await db.query(
      `INSERT INTO inbox_events (event_key, type, payload, received_at)
       VALUES ('console-pending-probe', 'test.pending', '{}', now() + interval '1 hour') RETURNING id`,
    );
    try {
      await page.goto(`${h.url}/console`);
      await eventually(
        async () => Number(await page.locator('[data-live="pendingEvents"]').innerText()) >= 1,
        15_000,
      );
    } finally {
      await db.query(`DELETE FROM inbox_events WHERE id = $1`, [id]);
    }
    await eventually(
      async () => Number(await page.locator('[data-live="pendingEvents"]').innerText()) === 0,
      15_000,
    );
  });

  it('watches the budget plot move under load', async () => {
    await page.goto(`${h.url}/console/budget`);
    await page.locator('#budget-plot canvas').waitFor();
    const gateway = h.app.get(CrmGateway);
    await Promise.all(Array.from({ length: 40 }, () => gateway.listTags({}, { priority: 'bulk' })));
    await eventually(
      async () => Number(await page.locator('#budget-plot').getAttribute('data-last-used')) >= 40,
    );
    expect(Number(await page.locator('[data-live="bulk"]').innerText())).toBeGreaterThan(0);
    await screenshot(page, 'budget');
  });

  it('draws the runs per arm and the goal conversions of a rule as a chart on the rules page', async () => {
    const ids: string[] = [];
    for (const name of ['Chart Carl', 'Chart Cleo']) {
      const c = await newContact(h, name);
      ids.push(c.id);
      await deliver(h.url, JSON.stringify(contactEvent('contact.updated', c)));
    }
    const succeeded = `SELECT count(*)::int AS n FROM runs WHERE contact_id = ANY($1) AND status = 'succeeded'
                         AND rule_id = 'console-ab'`;
    await eventually(async () => (await h.app.get(DataSource).query(succeeded, [ids]))[0].n === 2, 30_000);
    // The goal met after the run: a conversion, counted on the run's arm.
    expect((await crm(h, 'POST', `/v1/contacts/${ids[0]}/tags/${DEMO.tags.customer}`)).status).toBe(200);
    const customer = (await crm(h, 'GET', `/v1/contacts/${ids[0]}`)).body;
    await deliver(h.url, JSON.stringify(contactEvent('contact.updated', customer)));
    const counts = await eventually(async () => {
      const body = (await admin(h, 'GET', '/admin/rules/console-ab/branches')).body;
      return body.goalReached === 1 ? body : undefined;
    }, 30_000);
    expect(counts.runs).toBe(2);
    await page.goto(`${h.url}/console/rules?period=24h`);
    const chart = page.locator('.branch-chart[data-rule="console-ab"]');
    await chart.locator('canvas').waitFor();
    const arms = (counts.arms as { label: string }[]).map((a) => a.label).sort();
    const series = ['runs', ...arms, 'goal reached'];
    expect(await chart.locator('.u-legend .u-series .u-label').allInnerTexts()).toEqual(['Time', ...series]);
    const drawn = JSON.parse((await chart.getAttribute('data-chart'))!).series as { values: number[] }[];
    const sums = drawn.map((s) => s.values.reduce((a, b) => a + b));
    expect([sums[0], sums[sums.length - 1], drawn.length]).toEqual([2, 1, series.length]);
    await screenshot(page, 'rules-chart');
  });

  it('left no session id or CSRF value in the engine logs of the whole suite', async () => {
    const values = await sessionValues();
    expect(values.some((v) => /^[A-Za-z0-9_-]{43}$/.test(v))).toBe(true); // the session id was seen
    expect(logs.text()).toContain('"set-cookie":"[redacted]"');
    expect(logs.leaked(values)).toEqual([]);
  });
});
