// Issue 34, goal 5: a rule with `backfill: true` runs, on activation, for the contacts that already
// match (read from the mirror), only after an operator confirms its preview, at bulk priority, once
// per contact whatever the retries; a manual bulk run for a list of contacts goes the same way.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { BulkRunExecutor } from '../../../src/pipeline/bulk-runs/bulk-run-executor.service';
import { CrmGateway } from '../../../src/outbound/crm-gateway/crm-gateway.service';
import { admin, crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';
import { api } from '../../support/http';
import { consoleLogIn } from '../../support/console-client';
import { run } from '../../../src/tooling/cli/index';
import { ADMIN_TOKEN } from '../../support/engine-harness';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../../support/webhooks';

const PLACEHOLDER = 'rule: placeholder\non: contact.created\ndo:\n  - add-tag: customer\n';
const BACKFILL = [
  'rule: backfill-gold',
  'on: contact.updated',
  'backfill: true',
  'if:',
  '  all:',
  '    - { fact: contact.name, operator: matches, value: "^Gold " }',
  'do:',
  '  - add-tag: vip',
  '',
].join('\n');
const MESSAGE_RULE = 'rule: on-message\non: message.created\ndo:\n  - add-tag: customer\n';
// A segment whose members (after its sweep) a bulk run can take; its own action is beside the point.
const SEGMENT_RULE = [
  'rule: everyone-active',
  'on:',
  '  schedule: "0 0 1 1 *"',
  '  segment:',
  '    name: Everyone active',
  '    filters: { status: active }',
  'do:',
  '  - add-tag: customer',
  '',
].join('\n');

describe('backfill and bulk runs', () => {
  let h: Harness;
  let db: DataSource;
  const gold: string[] = [];
  const plain: string[] = [];

  beforeAll(async () => {
    h = await startHarness({
      rules: { 'placeholder.yaml': PLACEHOLDER, 'message.yaml': MESSAGE_RULE, 'segment.yaml': SEGMENT_RULE },
      subscribe: false,
      quiet: true,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, RULES_WATCH: 'false' },
    });
    db = h.app.get(DataSource);
    // Contacts the CRM already has, known to the mirror through their update webhooks; no rule of
    // the running set listens to contact.updated, so nothing acts on them yet.
    for (let i = 0; i < 12; i++) {
      const c = await newContact(h, i < 8 ? `Gold ${i}` : `Plain ${i}`);
      (i < 8 ? gold : plain).push(c.id);
      expect((await deliver(h.url, JSON.stringify(contactEvent('contact.updated', c)))).status).toBe(200);
    }
    await eventually(async () => {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM contact_mirror`);
      return n >= 12;
    });
  });
  afterAll(async () => h?.stop());

  const tagsOf = async (id: string) =>
    ((await crm(h, 'GET', `/v1/contacts/${id}`)).body.tags as { name: string }[]).map((t) => t.name);

  it('prepares the backfill on activation, runs nothing before a confirmation, then tags exactly the matching contacts once', async () => {
    writeFileSync(join(h.rulesDir, 'backfill.yaml'), BACKFILL);
    expect((await admin(h, 'POST', '/admin/rules/reload')).body.ok).toBe(true);
    const prepared = await eventually(async () => {
      const list = (await admin(h, 'GET', '/admin/bulk-runs?rule=backfill-gold')).body.data;
      return list.find((b: { state: string }) => b.state === 'pending_confirmation');
    });
    expect(prepared).toMatchObject({
      source: 'backfill',
      contacts: 8,
      evaluated: 12,
      createdBy: 'activation',
    });
    const preview = (await admin(h, 'GET', `/admin/bulk-runs/${prepared.id}`)).body;
    expect(preview.forecast).toEqual({
      contacts: 8,
      callsPerRun: 1,
      calls: 8,
      minutesIfIdle: expect.any(Number),
      minutesAtMinShare: expect.any(Number),
    });
    expect(preview.firstContacts.map((c: { id: string }) => c.id).sort()).toEqual([...gold].sort());
    expect(preview.firstContacts[0].label).toMatch(/^Gold \d \(\+\d+\)$/);
    expect(preview.runs).toEqual({});
    for (const id of gold) expect(await tagsOf(id)).not.toContain('vip');

    const confirmed = await admin(h, 'POST', `/admin/bulk-runs/${prepared.id}/confirm`);
    expect([confirmed.status, confirmed.body.state]).toEqual([200, 'running']);
    const again = await admin(h, 'POST', `/admin/bulk-runs/${prepared.id}/confirm`);
    expect([again.status, again.body.error]).toEqual([409, 'not_pending']);

    const done = await eventually(async () => {
      const b = (await admin(h, 'GET', `/admin/bulk-runs/${prepared.id}`)).body;
      return b.state === 'done' && b.runs.succeeded === 8 ? b : undefined;
    }, 60_000);
    expect(done.runsCreated).toBe(8);
    for (const id of gold) expect(await tagsOf(id)).toContain('vip');
    for (const id of plain) expect(await tagsOf(id)).not.toContain('vip');
    const runs = await db.query(`SELECT priority, status FROM runs WHERE trigger_key = $1`, [
      `bulk:${prepared.id}`,
    ]);
    expect(runs).toHaveLength(8);
    expect(new Set(runs.map((r: { priority: string }) => r.priority))).toEqual(new Set(['bulk']));
    // Inside the budget: the gateway never met a 429.
    expect((await h.app.get(CrmGateway).counters()).rateLimited429).toBe(0);

    // A job retried after a crash (state back to running, no progress recorded) makes no second run.
    await db.query(`UPDATE bulk_runs SET state = 'running', runs_created = 0 WHERE id = $1`, [prepared.id]);
    await h.app.get(BulkRunExecutor).execute(prepared.id);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM runs WHERE trigger_key = $1`, [
      `bulk:${prepared.id}`,
    ]);
    expect(n).toBe(8);
    const [{ calls }] = await db.query(
      `SELECT count(*)::int AS calls FROM action_results a JOIN runs r ON r.id = a.run_id
        WHERE r.trigger_key = $1 AND a.status = 'succeeded'`,
      [`bulk:${prepared.id}`],
    );
    expect(calls).toBe(8);

    // The same version loaded again prepares no second backfill.
    expect((await admin(h, 'POST', '/admin/rules/reload')).body.ok).toBe(true);
    const backfills = (await admin(h, 'GET', '/admin/bulk-runs?rule=backfill-gold')).body.data;
    expect(backfills.filter((b: { source: string }) => b.source === 'backfill')).toHaveLength(1);
  });

  it('previews a manual bulk run for a list of contacts; a cancelled one cannot be confirmed', async () => {
    const unknown = '00000000-0000-4000-8000-0000000000aa';
    const created = await admin(h, 'POST', '/admin/rules/backfill-gold/bulk-runs', {
      contactIds: [gold[0], plain[0], unknown],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      source: 'list',
      state: 'pending_confirmation',
      contacts: 1,
      evaluated: 2,
    });
    expect(created.body.detail).toBe(`1 contact(s) not in the contact mirror, left out: ${unknown}`);
    const cancelled = await admin(h, 'POST', `/admin/bulk-runs/${created.body.id}/cancel`);
    expect([cancelled.status, cancelled.body.state]).toEqual([200, 'cancelled']);
    const late = await admin(h, 'POST', `/admin/bulk-runs/${created.body.id}/confirm`);
    expect([late.status, late.body.error]).toEqual([409, 'not_pending']);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM runs WHERE trigger_key = $1`, [
      `bulk:${created.body.id}`,
    ]);
    expect(n).toBe(0);
  });

  it('previews a bulk run for the members of a segment, as its last sweep stored them', async () => {
    const before = await admin(h, 'POST', '/admin/rules/backfill-gold/bulk-runs', {
      segment: 'Everyone active',
    });
    expect(before.status).toBe(201);
    expect(before.body).toMatchObject({ source: 'segment', sourceDetail: 'Everyone active', contacts: 0 });
    expect(before.body.detail).toContain('has no stored members: its rule everyone-active has not swept yet');
    expect((await admin(h, 'POST', '/admin/rules/everyone-active/sweep')).status).toBe(202);
    await eventually(async () => {
      const [s] = await db.query(`SELECT status FROM segment_sweeps WHERE rule_id = 'everyone-active'`);
      return s?.status === 'succeeded';
    }, 60_000);
    const after = await admin(h, 'POST', '/admin/rules/backfill-gold/bulk-runs', {
      segment: 'everyone-active',
    });
    expect(after.status).toBe(201);
    // Every contact is active: the segment holds the twelve (and the sandbox's own), eight Gold ones match.
    expect(after.body).toMatchObject({ source: 'segment', contacts: 8, detail: null });
    expect(after.body.evaluated).toBeGreaterThanOrEqual(12);
    const unknown = await admin(h, 'POST', '/admin/rules/backfill-gold/bulk-runs', { segment: 'nope' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'unknown_segment']);
    const blank = await admin(h, 'POST', '/admin/rules/backfill-gold/bulk-runs', { segment: ' ' });
    expect([blank.status, blank.body.error]).toEqual([400, 'invalid_segment']);
  });

  it('crm-rules bulk creates, shows and confirms a bulk run; a second confirm fails', async () => {
    const saved = process.env.ADMIN_TOKEN;
    process.env.ADMIN_TOKEN = ADMIN_TOKEN;
    const cli = async (...args: string[]) => {
      let out = '';
      let err = '';
      const code = await run(['bulk', '--url', h.url, ...args], {
        out: (t) => (out += t),
        err: (t) => (err += t),
      });
      return { code, out, err };
    };
    try {
      const created = await cli('create', 'backfill-gold', gold[1], plain[1]);
      expect(created.code).toBe(0);
      expect(created.out).toMatch(/pending_confirmation +backfill-gold@\S+ list, 1 contact\(s\)/);
      expect(created.out).toContain('forecast: 1 CRM call(s) (1 a run)');
      expect(created.out).toMatch(/contacts: Gold 1 \(\+\d+\)/);
      const id = /confirm: crm-rules bulk confirm (\S+)/.exec(created.out)![1];
      expect((await cli('list', '--rule', 'backfill-gold')).out).toContain(id);
      expect(await cli('confirm', id)).toMatchObject({ code: 0, out: expect.stringContaining(' running ') });
      expect(await cli('confirm', id)).toMatchObject({
        code: 1,
        err: expect.stringContaining('409 bulk run'),
      });
      await eventually(async () => (await cli('show', id)).out.includes(' done '));
      expect((await cli('show', 'not-a-uuid')).code).toBe(1);
    } finally {
      if (saved === undefined) delete process.env.ADMIN_TOKEN;
      else process.env.ADMIN_TOKEN = saved;
    }
  });

  it('the console: the rule page previews a list, the bulk run page confirms it once', async () => {
    const client = await consoleLogIn(h.url);
    const rulePage = await client.get('/console/rules/backfill-gold');
    expect(rulePage.html).toContain('backfill on activation');
    const created = await client.post('/console/rules/backfill-gold/bulk-runs', {
      contactIds: `${gold[2]}\n${plain[2]}`,
    });
    expect(created.status).toBe(303);
    const page = await client.get(created.location!);
    const html = page.html.replace(/&#x2F;/g, '/');
    expect(html).toContain('1 of 2 contact(s) evaluated match');
    expect(html).toMatch(/Gold 2 \(\+\d+\)/);
    expect(html).toContain('Confirm: run for 1 contact(s)');
    const id = created.location!.split('/').pop()!;
    expect((await client.post(`/console/bulk-runs/${id}/confirm`, {})).status).toBe(303);
    const twice = await client.post(`/console/bulk-runs/${id}/confirm`, {});
    expect(twice.status).toBe(409);
    expect(twice.html).toContain('only a bulk run waiting for a confirmation can be confirmed');
    const refused = await client.post('/console/rules/on-message/bulk-runs', { contactIds: gold[0] });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('cannot run in bulk');
    expect((await client.get('/console/bulk-runs/not-a-uuid')).status).toBe(404);
  });

  it('refuses without a token, bad bodies, unknown rules and ids, and rules that need an event', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await api(h.url, 'GET', '/admin/bulk-runs')).status).toBe(401);
    expect(
      (await api(h.url, 'POST', `/admin/rules/backfill-gold/bulk-runs`, { contactIds: [gold[0]] })).status,
    ).toBe(401);
    const bad = await admin(h, 'POST', '/admin/rules/backfill-gold/bulk-runs', {
      contactIds: ['not-a-uuid'],
    });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_contacts']);
    const empty = await admin(h, 'POST', '/admin/rules/backfill-gold/bulk-runs', {});
    expect([empty.status, empty.body.error]).toEqual([400, 'invalid_contacts']);
    const noRule = await admin(h, 'POST', '/admin/rules/nope/bulk-runs', { contactIds: [gold[0]] });
    expect([noRule.status, noRule.body.error]).toEqual([404, 'unknown_rule']);
    const message = await admin(h, 'POST', '/admin/rules/on-message/bulk-runs', { contactIds: [gold[0]] });
    expect([message.status, message.body.error]).toEqual([409, 'needs_event']);
    expect((await admin(h, 'GET', `/admin/bulk-runs/${unknown}`)).status).toBe(404);
    expect((await admin(h, 'GET', '/admin/bulk-runs/not-a-uuid')).status).toBe(400);
    expect((await admin(h, 'POST', `/admin/bulk-runs/${unknown}/confirm`)).status).toBe(404);
  });
});
