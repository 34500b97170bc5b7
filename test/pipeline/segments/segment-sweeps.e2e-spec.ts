import type { Contact } from '@crm-rules/crm-contract';
import { ADMIN_TOKEN, eventually } from '../../support/engine-harness';
import { ContactMirrorService } from '../../../src/pipeline/contact-mirror/contact-mirror.service';
import { planCommand } from '../../../src/pipeline/segments/plan/plan-command';
import { SweepSchedulerService } from '../../../src/pipeline/segments/sweeps/sweep-scheduler.service';
import {
  admin,
  crmContact,
  mirrorCatchesUp,
  sandbox,
  startSegmentsHarness,
  writeCalls,
  type SegmentsHarness,
} from './support/segments-harness';
import { DEMO } from '../../support/demo-fixture';

jest.setTimeout(60_000);

const NEVER = '"0 0 1 1 *"'; // once a year: these tests sweep on demand

const tagsOf = async (h: SegmentsHarness, id: string) =>
  (await crmContact(h, id)).tags.map((t) => t.name).sort();

/** Queues a manual sweep and waits until it finished and every action it queued is done. */
async function sweepNow(h: SegmentsHarness, ruleId: string) {
  const queued = await admin(h, 'POST', `/admin/rules/${ruleId}/sweep`);
  expect(queued.status).toBe(202);
  return eventually(
    async () => {
      const { body } = await admin(h, 'GET', `/admin/sweeps/${ruleId}`);
      const sweep = body.data.find((s: { tickAt: string }) => s.tickAt === queued.body.tickAt);
      if (!sweep || !['succeeded', 'failed', 'skipped'].includes(sweep.status)) return undefined;
      const { pending = 0, running = 0 } = sweep.progress.actions;
      return pending + running === 0 ? sweep : undefined;
    },
    30000,
    100,
  );
}

describe('a scheduled segment rule', () => {
  let h: SegmentsHarness;
  beforeAll(async () => {
    h = await startSegmentsHarness({
      rules: {
        'dormant.yaml': [
          'rule: dormant-contacts',
          'on:',
          '  schedule: "*/2 * * * * *"',
          '  segment:',
          '    filters: { lastInteractionBefore: now-30d, status: active, isBlocked: false }',
          'do:',
          '  - add-tag: dormant',
          '',
        ].join('\n'),
      },
    });
  });
  afterAll(async () => h?.stop());

  it('tags the members of its segment on its own schedule, and nobody else', async () => {
    // The oracle, straight from the CRM: silent for 30 days, active, not blocked.
    const all: Contact[] = (await sandbox(h, 'GET', '/v1/contacts?limit=100')).body.data;
    const cutoff = Date.now() - 30 * 86400e3;
    const dormant = all.filter(
      (c) =>
        c.lastInteractionAt &&
        Date.parse(c.lastInteractionAt) < cutoff &&
        c.status === 'active' &&
        !c.isBlocked,
    );
    expect(dormant.map((c) => c.id)).toEqual(
      expect.arrayContaining([DEMO.contacts.lukas, DEMO.contacts.olivia]),
    );
    const tagged = async () =>
      (await sandbox(h, 'GET', '/v1/contacts?limit=100')).body.data.filter((c: Contact) =>
        c.tags.some((t) => t.name === 'dormant'),
      );
    const members = await eventually(
      async () => {
        const now = await tagged();
        return now.length >= dormant.length ? now : undefined;
      },
      20000,
      250,
    );
    expect(members.map((c: Contact) => c.id).sort()).toEqual(dormant.map((c) => c.id).sort());
    for (const other of [DEMO.contacts.maria, DEMO.contacts.anaGomez, DEMO.contacts.fatima])
      expect(await tagsOf(h, other)).not.toContain('dormant');
    const { body } = await admin(h, 'GET', '/admin/sweeps');
    expect(body.sweeps).toEqual([expect.objectContaining({ ruleId: 'dormant-contacts', reason: 'cron' })]);
    expect(body.mirror.lastFullSyncAt).not.toBeNull();
  });
});

describe('segment sweeps on demand', () => {
  let h: SegmentsHarness;
  beforeAll(async () => {
    const rule = (id: string, lines: string[]) =>
      [`rule: ${id}`, 'on:', `  schedule: ${NEVER}`, ...lines, ''].join('\n');
    h = await startSegmentsHarness({
      rules: {
        'vip.yaml': rule('vip-customers', [
          '  segment:',
          '    name: VIP contacts',
          `    filters: { tagIds: ["${DEMO.tags.vip}"] }`,
          '    sync: true',
          'when: every-run',
          'do:',
          '  - add-tag: customer',
        ]),
        'qualified.yaml': rule('qualified-thanks', [
          '  segment:',
          // By name, as conditions and actions take them: resolved through the directory.
          '    filters: { stageIds: [Qualified], status: active }',
          'do:',
          '  - add-tag: thanked',
          'on-leave:',
          '  - remove-tag: thanked',
        ]),
      },
    });
  });
  afterAll(async () => h?.stop());

  it('plans who would enter and what it would cost, and writes nothing', async () => {
    await h.app.get(ContactMirrorService).refresh(); // plan reads the mirror; fill it first
    await sandbox(h, 'DELETE', '/_sandbox/counters');
    const { status, body } = await admin(h, 'GET', '/admin/rules/qualified-thanks/plan');
    expect(status).toBe(200);
    expect(body.entering.map((c: { id: string }) => c.id)).toEqual([DEMO.contacts.john]); // Fatima is Qualified but archived
    expect(body.actions).toEqual([
      expect.objectContaining({
        on: 'member',
        action: { type: 'add-tag', tag: 'thanked' },
        contacts: 1,
        calls: 1,
      }),
      expect.objectContaining({
        on: 'leave',
        action: { type: 'remove-tag', tag: 'thanked' },
        contacts: 0,
        calls: 0,
      }),
    ]);
    expect(body.crmCalls).toMatchObject({ actions: 1, segmentSync: 0 });
    expect(body.estimatedMs).toBeGreaterThan(0);
    const [{ runs }] = await h.db.query(
      `SELECT count(*)::int AS runs FROM runs WHERE rule_id = 'qualified-thanks'`,
    );
    const [{ members }] = await h.db.query(`SELECT count(*)::int AS members FROM segment_memberships`);
    expect({ runs, members, writes: await writeCalls(h) }).toEqual({ runs: 0, members: 0, writes: {} });
  });

  it('prints the plan on the command line (crm-rules plan --rule ID)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const env = { ...process.env, ADMIN_TOKEN };
    const code = await planCommand(
      { rule: 'qualified-thanks', url: h.url },
      (l = '') => out.push(l),
      (l) => err.push(l),
      env,
    );
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out.join('\n')).toMatch(/entering: 1\n {2}John Smith {2}14155550123/);
    expect(out.join('\n')).toMatch(/add-tag "thanked": 1 contact\(s\), 1 call\(s\)/);
    expect(
      await planCommand(
        { rule: 'nope', url: h.url },
        () => undefined,
        (l) => err.push(l),
        env,
      ),
    ).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^plan: 404 no rule "nope"/)]);
  });

  it('acts on the members, then makes no write call on a second sweep with no change', async () => {
    const first = await sweepNow(h, 'vip-customers');
    expect(first).toMatchObject({
      status: 'succeeded',
      progress: expect.objectContaining({ members: 2, entered: 2 }),
    });
    expect(await tagsOf(h, DEMO.contacts.john)).toEqual(['customer', 'vip']);
    const segments = (await sandbox(h, 'GET', '/v1/segments')).body.data.map((s: { name: string }) => s.name);
    expect(segments).toContain('VIP contacts');
    await mirrorCatchesUp(h, DEMO.contacts.john);

    await sandbox(h, 'DELETE', '/_sandbox/counters');
    const second = await sweepNow(h, 'vip-customers');
    expect(second).toMatchObject({
      status: 'succeeded',
      progress: expect.objectContaining({ members: 2, entered: 0 }),
    });
    // every-run: both members got a run again, and the guards skipped both writes.
    expect(second.progress.actions).toEqual({ skipped: 2 });
    expect(await writeCalls(h)).toEqual({});
  });

  it('removes the tag of a contact that left the segment (on-leave)', async () => {
    await sweepNow(h, 'qualified-thanks');
    expect(await tagsOf(h, DEMO.contacts.john)).toContain('thanked');
    await sandbox(h, 'PUT', `/v1/contacts/${DEMO.contacts.john}/stage`, { stageId: DEMO.stages.customer });
    await mirrorCatchesUp(h, DEMO.contacts.john);

    const sweep = await sweepNow(h, 'qualified-thanks');
    expect(sweep.progress).toMatchObject({ left: 1, entered: 0, members: 0 });
    expect(await tagsOf(h, DEMO.contacts.john)).not.toContain('thanked');
    const [{ n }] = await h.db.query(
      `SELECT count(*)::int AS n FROM segment_memberships WHERE rule_id = 'qualified-thanks'`,
    );
    expect(n).toBe(0);
  });

  it('does not start a sweep of a rule while one is still running', async () => {
    await sandbox(h, 'POST', '/_sandbox/faults', {
      kind: 'latency',
      count: 1,
      latencyMs: 2000,
      route: 'GET /v1/contacts',
    });
    await admin(h, 'POST', '/admin/rules/vip-customers/sweep');
    await eventually(
      async () =>
        (
          await h.db.query(
            `SELECT 1 FROM segment_sweeps WHERE rule_id = 'vip-customers' AND status = 'running'`,
          )
        ).length > 0,
    );
    const second = await sweepNow(h, 'vip-customers');
    expect(second).toMatchObject({ status: 'skipped' });
    const statuses = await eventually(async () => {
      const rows: { status: string; detail: string | null }[] = await h.db.query(
        `SELECT status, detail FROM segment_sweeps WHERE rule_id = 'vip-customers' ORDER BY tick_at DESC LIMIT 2`,
      );
      return rows.every((r) => r.status !== 'running' && r.status !== 'queued') ? rows : undefined;
    });
    expect(statuses.map((s) => s.status).sort()).toEqual(['skipped', 'succeeded']);
    expect(statuses.find((s) => s.status === 'skipped')?.detail).toMatch(/^previous_sweep_running/);
  });

  it('runs a tick missed while the engine was down once on start', async () => {
    await h.db.query(
      `UPDATE segment_rule_state SET last_tick_at = now() - interval '3 years', registered_at = now() - interval '3 years' WHERE rule_id = 'qualified-thanks'`,
    );
    const scheduler = h.app.get(SweepSchedulerService);
    await scheduler.sync(); // what start-up does
    await scheduler.sync(); // a second replica starting, or a reload: no second catch-up
    const missed = await eventually(async () => {
      const rows = await h.db.query(
        `SELECT tick_at, status FROM segment_sweeps WHERE rule_id = 'qualified-thanks' AND reason = 'missed'`,
      );
      return rows.length && rows.every((r: { status: string }) => r.status === 'succeeded')
        ? rows
        : undefined;
    });
    expect(missed).toHaveLength(1);
    const tick = new Date(missed[0].tick_at);
    expect(tick.getTime()).toBeGreaterThan(Date.now() - 366 * 86400e3);
    expect(tick.toISOString()).toBe(`${new Date().getUTCFullYear()}-01-01T00:00:00.000Z`); // no timezone: UTC
  });
});
