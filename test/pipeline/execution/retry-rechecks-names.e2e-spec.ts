import { admin, crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';

// Issue 34, goal 7: after creating a missing tag in the CRM, Retry failed again for 60 s with the
// old tag list (the directory's miss cache, MISS_TTL_MS). A retry of an action that failed on a
// name now looks the names up afresh.
describe('a retry re-checks names', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      rules: { 'late.yaml': 'rule: late-tag\non: contact.created\ndo:\n  - add-tag: created-later\n' },
    });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const runOf = async (contactId: string, statuses: string[]) =>
    eventually(async () => {
      const runs = (await admin(h, 'GET', `/admin/runs?contact=${contactId}`)).body as {
        id: string;
        status: string;
      }[];
      const run = (Array.isArray(runs) ? runs : (runs as { data: typeof runs }).data)?.[0];
      return run && statuses.includes(run.status) ? run : undefined;
    }, 60_000);

  it('succeeds on the retry right after the tag is created in the CRM, within the miss window', async () => {
    const contact = await newContact(h, 'Retry Rita');
    const failed = await runOf(contact.id, ['failed', 'dead', 'succeeded']);
    expect(failed.status).toBe('failed');
    const detail = (await admin(h, 'GET', `/admin/runs/${failed.id}`)).body;
    expect(detail.actionResults.map((a: { errorCode?: string; reason?: string }) => a.reason)).toEqual([
      'unknown_name',
    ]);
    expect((await crm(h, 'POST', '/v1/tags', { name: 'created-later' })).status).toBe(201);
    const retried = await admin(h, 'POST', '/admin/actions/retry-dead', {
      runId: failed.id,
      includeFailed: true,
    });
    expect(retried.body).toEqual({ retried: 1, refused: [] });
    await eventually(
      async () => (await admin(h, 'GET', `/admin/runs/${failed.id}`)).body.status === 'succeeded',
      30_000,
    );
    const fresh = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body;
    expect(fresh.tags.map((t: { name: string }) => t.name)).toContain('created-later');
  }, 120_000);
});
