import type { Contact } from '@crm-rules/crm-contract';
import { eventually } from '../../support/engine-harness';
import { admin, sandbox, startSegmentsHarness, type SegmentsHarness } from './support/segments-harness';

jest.setTimeout(60_000);

// rules/dormant-sync.yaml, as shipped, against the sandbox's demo data.
describe('the example segment rule in rules/', () => {
  let h: SegmentsHarness;
  beforeAll(async () => {
    h = await startSegmentsHarness(); // the repository's rules/ directory
  });
  afterAll(async () => h?.stop());

  it('is scheduled, syncs its segment to the CRM and tags the dormant contacts when swept', async () => {
    const [state] = await h.db.query(
      `SELECT cron, timezone FROM segment_rule_state WHERE rule_id = 'dormant-contacts'`,
    );
    expect(state).toEqual({ cron: '0 6 * * *', timezone: 'Europe/Lisbon' });

    const queuedFrom = Date.now();
    const queued = await admin(h, 'POST', '/admin/rules/dormant-contacts/sweep');
    expect(queued.status).toBe(202);
    const sweep = await eventually(
      async () => {
        const { body } = await admin(h, 'GET', '/admin/sweeps/dormant-contacts');
        const s = body.data[0];
        return s?.status === 'succeeded' && !s.progress.actions.pending && !s.progress.actions.running
          ? s
          : undefined;
      },
      30000,
      100,
    );

    const all: Contact[] = (await sandbox(h, 'GET', '/v1/contacts?limit=100')).body.data;
    const cutoff = Date.now() - 30 * 86400e3;
    const dormant = all.filter(
      (c) =>
        c.lastInteractionAt &&
        Date.parse(c.lastInteractionAt) < cutoff &&
        c.status === 'active' &&
        !c.isBlocked,
    );
    const tagged = all.filter((c) => c.tags.some((t) => t.name === 'dormant'));
    expect(dormant.length).toBeGreaterThan(0);
    expect(tagged.map((c) => c.id).sort()).toEqual(dormant.map((c) => c.id).sort());
    expect(sweep.progress).toMatchObject({ members: dormant.length, entered: dormant.length });

    const segments = (await sandbox(h, 'GET', '/v1/segments')).body.data;
    const synced = segments.find((s: { name: string }) => s.name === 'Dormant 30 days');
    expect(synced.filters).toMatchObject({ status: 'active', isBlocked: false });
    // now-30d resolved at the sweep: between 30 days before it was queued and the cutoff above.
    // Issue 31: a sweep's runs name the deployed version too (RULES_DIR: `dir-<content hash>`).
    const commits = await h.db.query(
      `SELECT DISTINCT rules_commit FROM runs WHERE rule_id = 'dormant-contacts'`,
    );
    expect(commits).toEqual([{ rules_commit: expect.stringMatching(/^dir-[0-9a-f]{16}$/) }]);
    const lastInteractionBefore = Date.parse(synced.filters.lastInteractionBefore);
    expect(lastInteractionBefore).toBeGreaterThanOrEqual(queuedFrom - 30 * 86400e3);
    expect(lastInteractionBefore).toBeLessThanOrEqual(cutoff);
  });
});
