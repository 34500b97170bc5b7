// Manual runs through the admin API, end to end (real Postgres, Redis, the sandbox CRM): a dry
// run answers the explain and writes nothing; a real run acts through the normal pipeline and is
// recorded with trigger manual and who asked; what cannot be run by hand is refused.
import { DataSource } from 'typeorm';
import { runCommand } from '../../../src/tooling/cli/run.command';
import {
  admin,
  ADMIN_TOKEN,
  crm,
  eventually,
  newContact,
  Harness,
  startHarness,
} from '../../support/engine-harness';

const RULES = {
  'vip.yaml': `rule: tag-vip-by-hand
on: contact.updated
if: { fact: contact.name, operator: startsWith, value: Manual }
do:
  - add-tag: vip
`,
  'segment.yaml': `rule: weekly-dormant
on: { schedule: "0 9 * * 1", segment: { name: dormant-manual, filters: { isBlocked: false } } }
do:
  - add-tag: dormant
`,
};

describe('manual runs: POST /admin/rules/:id/run', () => {
  let h: Harness;
  let db: DataSource;
  const counts = async (contactId: string) =>
    (
      await db.query(
        `SELECT (SELECT count(*)::int FROM runs WHERE contact_id = $1) AS runs,
                (SELECT count(*)::int FROM action_results a JOIN runs r ON r.id = a.run_id WHERE r.contact_id = $1) AS actions`,
        [contactId],
      )
    )[0];

  beforeAll(async () => {
    h = await startHarness({ rules: RULES, subscribe: false });
    db = h.app.get(DataSource);
  });
  afterAll(async () => h?.stop());

  it('dry run: the explain (conditions with values, actions with verdicts) and nothing written', async () => {
    const contact = await newContact(h, 'Manual Mia');
    const res = await admin(h, 'POST', '/admin/rules/tag-vip-by-hand/run', {
      contactId: contact.id,
      dryRun: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        dryRun: true,
        explain: expect.objectContaining({
          matched: true,
          conditions: [
            expect.objectContaining({ fact: 'contact', path: '$.name', actual: 'Manual Mia', result: true }),
          ],
          actions: [expect.objectContaining({ type: 'add-tag', verdict: 'would_run' })],
        }),
      }),
    );
    expect(await counts(contact.id)).toEqual({ runs: 0, actions: 0 });
    const after = await crm(h, 'GET', `/v1/contacts/${contact.id}`);
    expect(after.body.tags).toEqual([]);
  });

  it('real run: acts through the pipeline, recorded manual with who', async () => {
    const contact = await newContact(h, 'Manual Max');
    const res = await admin(h, 'POST', '/admin/rules/tag-vip-by-hand/run', { contactId: contact.id });
    expect(res.status).toBe(200);
    expect(res.body.run).toEqual(
      expect.objectContaining({
        status: 'pending',
        by: 'admin-api',
        triggerKey: expect.stringMatching(/^manual:admin-api:/),
      }),
    );
    const run = await eventually(async () => {
      const [row] = await db.query(
        `SELECT status, trigger_key AS "triggerKey", created_at FROM runs WHERE id = $1`,
        [res.body.run.id],
      );
      return row?.status === 'succeeded' ? row : undefined;
    });
    expect(run.triggerKey).toBe(res.body.run.triggerKey);
    const after = await crm(h, 'GET', `/v1/contacts/${contact.id}`);
    expect(after.body.tags.map((t: { name: string }) => t.name)).toEqual(['vip']);
    // The same run again: its guard sees the tag and skips (no second write).
    const again = await admin(h, 'POST', '/admin/rules/tag-vip-by-hand/run', {
      contactId: contact.id,
      dryRun: true,
    });
    expect(again.body.explain.actions).toEqual([
      expect.objectContaining({ verdict: 'skipped', reason: 'no_change' }),
    ]);
  });

  it('records a contact whose conditions do not hold as not matched, acting on nothing', async () => {
    const contact = await newContact(h, 'Someone Else');
    const res = await admin(h, 'POST', '/admin/rules/tag-vip-by-hand/run', { contactId: contact.id });
    expect(res.body.run.status).toBe('not_matched');
    expect(res.body.explain.actions).toEqual([]);
  });

  it('crm-rules run calls the API: --dry-run prints the explain, then a real run', async () => {
    const contact = await newContact(h, 'Manual Cli');
    const out: string[] = [];
    const err: string[] = [];
    const env = { ADMIN_TOKEN };
    const cli = (dryRun: boolean) =>
      runCommand(
        { rule: 'tag-vip-by-hand', contact: contact.id, dryRun, url: h.url, waitSeconds: '600' },
        (l = '') => out.push(l),
        (l) => err.push(l),
        env,
      );
    expect(await cli(true)).toBe(0);
    expect(out).toEqual(expect.arrayContaining(['  add-tag: would run', 'dry run: nothing was written']));
    expect(await counts(contact.id)).toEqual({ runs: 0, actions: 0 });
    out.length = 0;
    expect(await cli(false)).toBe(0);
    expect(out).toContainEqual(expect.stringMatching(/^run [0-9a-f-]+: pending \(manual, by admin-api\)$/));
    // It waits for the outcome (crm-rules run --no-wait would stop at pending).
    expect(out.slice(-2)).toEqual([
      expect.stringMatching(/^run [0-9a-f-]+ ended succeeded$/),
      '  add-tag: succeeded',
    ]);
    const refused = await runCommand(
      { rule: 'weekly-dormant', contact: contact.id, url: h.url },
      () => undefined,
      (l) => err.push(l),
      env,
    );
    expect(refused).toBe(1);
    expect(err.join('\n')).toContain('409');
  });

  it.each([
    [
      'an unknown rule',
      '/admin/rules/no-such-rule/run',
      { contactId: '0b4f1e3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' },
      404,
    ],
    [
      'a segment rule',
      '/admin/rules/weekly-dormant/run',
      { contactId: '0b4f1e3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' },
      409,
    ],
    ['a contact id that is not a uuid', '/admin/rules/tag-vip-by-hand/run', { contactId: '42' }, 400],
    [
      'an unknown contact',
      '/admin/rules/tag-vip-by-hand/run',
      { contactId: '0b4f1e3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' },
      404,
    ],
    ['a body without contactId', '/admin/rules/tag-vip-by-hand/run', {}, 400],
  ])('refuses %s', async (_what, path, body, status) => {
    const res = await admin(h, 'POST', path, body);
    expect(res.status).toBe(status);
  });

  it('requires the admin token', async () => {
    const res = await fetch(`${h.url}/admin/rules/tag-vip-by-hand/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contactId: '0b4f1e3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' }),
    });
    expect(res.status).toBe(401);
  });
});
