// Issue 32, in Chromium on the demo (`npm start`'s first minute: the example rules, Dana Demo
// created at start): names beside ids and the search by name, a message skipped for
// needs_assignee in front (run page, Needs attention, a warn line), the rule page with its YAML,
// and the smaller findings (text as sent, request ids, one "mirror updated" line per version,
// favicon, the manual-run pattern, the budget chart's first load).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { admin, crm, eventually, Harness, startHarness } from '../../support/engine-harness';
import { launchBrowser, logIn, screenshot } from './browser';
import { capturedLogging, LogCapture } from './log-capture';

const DANA = 'd0000000-0000-4000-8000-000000000042';
const MARIA = 'c0000000-0000-4000-8000-000000000001'; // fixture contact with an assignee

/** The repository's example rules, plus a greeting Dana (no assignee) cannot get and a hello. */
function demoRules(): Record<string, string> {
  const dir = join(__dirname, '..', '..', '..', 'rules');
  const rules = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  rules['greet.yaml'] = [
    '# Greets every new contact, then marks it for a follow-up.',
    'rule: greet-new-contacts',
    'description: Say hello to every new contact and tag it for a follow-up',
    'on: contact.created',
    'do:',
    '  - send-message: { text: "Hi {{contact.name}}, welcome!", channel: Main WhatsApp }',
    '  - add-tag: thanked', // the demo fixture's tags have no no-reply
    '---',
    'rule: hello-on-notes',
    'on: contact.updated',
    'if: { fact: contact.notes, operator: equal, value: hello }',
    'do:',
    '  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }',
    '',
  ].join('\n');
  return rules;
}

describe('console on the demo: names, attention first, rule pages', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;
  const logs = new LogCapture();

  beforeAll(async () => {
    [h, browser] = await Promise.all([
      startHarness({
        ...capturedLogging(logs, { RULES_WATCH: 'false' }, 'info'),
        rules: demoRules(),
        demo: true,
      }),
      launchBrowser(),
    ]);
    page = await (await browser.newContext()).newPage();
    await logIn(page, h.url);
    // The demo created Dana (her fixture id) and the rules ran for her.
    await eventually(
      async () =>
        (await admin(h, 'GET', `/admin/runs?contact=${DANA}&rule=greet-new-contacts&status=succeeded`)).body
          .data[0],
      30_000,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('keeps the demo contact at her fixture id', async () => {
    expect((await crm(h, 'GET', `/v1/contacts/${DANA}`)).body.name).toBe('Dana Demo');
  });

  it('finds Dana Demo by typing "Dana" in Contacts, and titles her timeline with her name', async () => {
    await page.goto(`${h.url}/console/contacts`);
    await page.fill('input[name=id]', 'Dana');
    await page.click('form.filters button');
    await page.waitForURL(new RegExp(`/console/contacts/${DANA}$`));
    expect(await page.locator('h1').innerText()).toBe('Dana Demo');
    expect(await page.title()).toContain('Dana Demo');
    expect(await page.locator('p.contact-facts').innerText()).toContain('+5511900000042');
    // One "mirror updated" line per contact version, though the runner and the webhook both mirrored it.
    const mirrored = await page.locator('li.step[data-kind=mirror] .detail').allInnerTexts();
    expect(mirrored.length).toBeGreaterThan(0);
    expect(new Set(mirrored).size).toBe(mirrored.length);
    await screenshot(page, 'timeline-named');
  });

  it('filters runs by her name; the not_matched toggle adds no rows for events decided unmatched', async () => {
    await page.goto(`${h.url}/console/runs?contact=Dana`);
    const contacts = await page.locator('table.runs td.contact').allInnerTexts();
    expect(contacts.length).toBeGreaterThan(0);
    for (const c of contacts) expect(c).toContain('Dana Demo');
    const statuses = await page
      .locator('table.runs tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    expect(statuses).not.toContain('not_matched');
    await page.click('p.not-matched-toggle a');
    await page.waitForURL(/notMatched=show/);
    // tag-ad-leads does not match a MANUAL contact, yet no not_matched run is listed: an event's
    // rules that did not match leave no runs (issue 35), their decision is on the event
    // (GET /admin/events/:id/explain); only runs written before that are shown here.
    expect(
      await page
        .locator('table.runs tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))),
    ).toEqual(statuses);
    await screenshot(page, 'runs-named');
  });

  it('names her on the run page, says the message was skipped for needs_assignee, and the later tag ran anyway', async () => {
    const run = (await admin(h, 'GET', `/admin/runs?contact=${DANA}&rule=greet-new-contacts`)).body.data[0];
    await page.goto(`${h.url}/console/runs/${run.id}`);
    expect(await page.locator('h1').innerText()).toBe('Run of greet-new-contacts for Dana Demo');
    expect(await page.locator('table.run-facts').innerText()).toContain('Dana Demo (+5511900000042)');
    expect(await page.locator('table.run-facts .badge').first().innerText()).toBe('succeeded with skips');
    const attention = await page.locator('section.attention').innerText();
    expect(attention).toContain('was not sent: needs_assignee');
    expect(attention).toContain('Later actions (#1) ran anyway');
    await screenshot(page, 'run-skipped');
  });

  it('counts and lists the skipped message under Needs attention, and logs it without personal data', async () => {
    await page.goto(`${h.url}/console`);
    expect(
      Number(await page.locator('[data-live="failures.skippedMessages"]').innerText()),
    ).toBeGreaterThanOrEqual(1);
    await page.click('a[data-live="failures.total"]');
    await page.waitForURL(/\/console\/failures$/);
    const row = page.locator('table.skipped-messages tbody tr', { hasText: 'greet-new-contacts' }).first();
    const text = await row.innerText();
    expect(text).toContain('Dana Demo');
    expect(text).toContain('needs_assignee');
    expect(text).toContain('has no assignee');
    expect(text).toContain('later actions ran anyway: #1'); // the tag that assumed the greeting went out
    const warn = logs
      .text()
      .split('\n')
      .find((l) => l.includes('greet-new-contacts: send-message (action 0) not sent'));
    expect(warn).toContain(`contact ${DANA}: needs_assignee`);
    expect(warn).toContain('"level":40');
    expect(warn).not.toContain('Dana');
    expect(warn).not.toContain('5511900000042');
  });

  it('shows a sent message as it went out (rendered) with the CRM request id', async () => {
    expect((await crm(h, 'PATCH', `/v1/contacts/${MARIA}`, { notes: 'hello' })).status).toBe(200);
    const run = await eventually(
      async () =>
        (await admin(h, 'GET', `/admin/runs?contact=${MARIA}&rule=hello-on-notes&status=succeeded`)).body
          .data[0],
      30_000,
    );
    await page.goto(`${h.url}/console/runs/${run.id}`);
    const action = await page.locator('table.actions tbody tr').first().innerText();
    expect(action).toContain('send-message “Hello Maria Silva”');
    expect(action).toContain('template: send-message "Hello {{contact.name}}"');
    expect(action).toMatch(/req_[0-9a-f]+/);
  });

  it('shows a rule page with its description and highlighted YAML, and says why a message rule has no manual run', async () => {
    await page.goto(`${h.url}/console/rules`);
    await page.click('tr[data-rule="greet-new-contacts"] a[href="/console/rules/greet-new-contacts"]');
    await page.waitForURL(/\/console\/rules\/greet-new-contacts$/);
    expect(await page.locator('p.description').innerText()).toBe(
      'Say hello to every new contact and tag it for a follow-up',
    );
    const yaml = await page.locator('pre.yaml').innerText();
    expect(yaml).toContain('rule: greet-new-contacts');
    expect(yaml).toContain('- add-tag: thanked');
    expect(yaml).not.toContain('hello-on-notes'); // its own document of the file only
    expect(await page.locator('pre.yaml .y-key', { hasText: 'send-message' }).count()).toBe(1);
    expect(await page.locator('table.skipped-messages').innerText()).toContain('needs_assignee');
    // Messages per category (issue 33): the greeting declares none, counted in the named default.
    const byCategory = await page.locator('table.messages-by-category tbody tr').first().innerText();
    expect(byCategory).toMatch(/^default \(no category declared\)\s+\d+\s+[1-9]\d* \(.*needs_assignee \d+/);
    expect(await page.locator('a.run-for-contact').count()).toBe(1);
    await screenshot(page, 'rule');

    await page.goto(`${h.url}/console/rules/thank-for-order`);
    expect(await page.locator('a.run-for-contact').count()).toBe(0);
    expect(await page.locator('p.no-manual-run').innerText()).toContain('carries no message');
  });

  it('pauses from the rule page and then shows paused only, not paused and live', async () => {
    await page.goto(`${h.url}/console/rules/hello-on-notes`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(/\/console\/rules\/hello-on-notes\?done=/);
    expect(await page.locator('td.state').innerText()).toMatch(/^paused resumes live/);
    await page.goto(`${h.url}/console/rules`);
    const state = await page.locator('tr[data-rule="hello-on-notes"] td.state .badge').allInnerTexts();
    expect(state).toEqual(['paused']);
    await page.goto(`${h.url}/console/rules/hello-on-notes`);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(/\/console\/rules\/hello-on-notes\?done=/);
  });

  it('answers the console 404 page for an unknown rule', async () => {
    const res = await page.goto(`${h.url}/console/rules/no-such-rule`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()['content-type']).toContain('text/html');
    expect(await page.locator('p.not-found').innerText()).toContain('no-such-rule');
  });

  it('serves /favicon.ico', async () => {
    const res = await page.goto(`${h.url}/favicon.ico`);
    expect(res?.status()).toBe(200);
  });

  it('checks the manual-run form pattern in the browser (valid under the v flag)', async () => {
    await page.goto(`${h.url}/console/rules/hello-on-notes/run`);
    const input = page.locator('input[name=contactId]');
    await input.fill('not-an-id');
    // The test's TypeScript has no DOM types: the element as far as this check reads it.
    type Checked = { validity: { patternMismatch: boolean; valid: boolean } };
    expect(await input.evaluate((el) => (el as unknown as Checked).validity.patternMismatch)).toBe(true);
    await input.fill(MARIA);
    expect(await input.evaluate((el) => (el as unknown as Checked).validity.valid)).toBe(true);
  });

  it('draws the budget chart around now on first load, not years wide', async () => {
    await page.goto(`${h.url}/console/budget`);
    const plot = page.locator('#budget-plot');
    await eventually(async () => (await plot.getAttribute('data-x-max')) !== null);
    const [min, max] = [
      Number(await plot.getAttribute('data-x-min')),
      Number(await plot.getAttribute('data-x-max')),
    ];
    const now = Date.now() / 1000;
    expect(max - min).toBeLessThan(3600);
    expect(Math.abs(max - now)).toBeLessThan(3600);
  });
});
