import { expandScopes, READ_SCOPES, ALL_SCOPES } from './api-key-auth';
import { buildState } from './fixture-builder';
import { FixtureError, readFixture, stableUuid } from './fixture-loader';
import { createContact, deleteContact } from './contacts.operations';

const now = new Date('2025-06-01T12:00:00Z');

describe('the demo fixture', () => {
  const state = buildState(readFixture(undefined), now);
  const demo = [...state.orgs.values()].find((o) => o.name === 'Demo Co')!;

  it('has the keys the engine relies on', () => {
    expect(state.apiKeys.get('sk_demo_full')?.scopes.size).toBe(ALL_SCOPES.length);
    expect([...state.apiKeys.get('sk_demo_readonly')!.scopes].sort()).toEqual([...READ_SCOPES].sort());
    expect(state.apiKeys.get('sk_demo_revoked')?.revoked).toBe(true);
    expect(state.orgs.get(state.apiKeys.get('sk_other_full')!.orgId)?.name).toBe('Other Org');
  });

  it('has the names the example rules use', () => {
    expect([...demo.tags.values()].map((t) => t.name)).toEqual([
      'new-contact',
      'vip',
      'ad-lead',
      'dormant',
      'customer',
      'thanked',
    ]);
    expect([...demo.stages.values()].map((s) => s.name)).toEqual(['New lead', 'Qualified', 'Customer']);
    expect([...demo.members.values()].map((m) => m.name)).toEqual(
      expect.arrayContaining(['Ana Ops', 'Ben Sales']),
    );
    expect([...demo.channels.values()].map((c) => [c.name, c.status])).toEqual([
      ['Main WhatsApp', 'connected'],
      ['Old Line', 'disconnected'],
    ]);
  });

  it('has about ten varied contacts', () => {
    const contacts = [...demo.contacts.values()];
    expect(contacts).toHaveLength(10);
    expect(contacts.some((c) => c.assigneeId === null)).toBe(true);
    expect(contacts.filter((c) => c.isBlocked)).toHaveLength(1);
    expect(new Set(contacts.map((c) => c.sourceMethod)).size).toBeGreaterThanOrEqual(8);
  });

  it("keeps the demo contact's id across restarts: created by phone, it gets the reserved id once", () => {
    const ids = [1, 2].map(() => {
      const org = [...buildState(readFixture(undefined), now).orgs.values()].find(
        (o) => o.name === 'Demo Co',
      )!;
      const ctx = { org, now: () => now, emit: () => undefined };
      return createContact(ctx, { name: 'Dana Demo', phone: '5511900000042' }).id;
    });
    expect(ids).toEqual(['d0000000-0000-4000-8000-000000000042', 'd0000000-0000-4000-8000-000000000042']);
    // Deleted and created again in the same sandbox: a new id (the engine tombstones deleted ids).
    const org = [...buildState(readFixture(undefined), now).orgs.values()].find((o) => o.name === 'Demo Co')!;
    const ctx = { org, now: () => now, emit: () => undefined };
    const first = createContact(ctx, { name: 'Dana Demo', phone: '5511900000042' });
    deleteContact(ctx, first.id);
    expect(createContact(ctx, { name: 'Dana Demo', phone: '5511900000042' }).id).not.toBe(first.id);
  });

  it('resolves relative dates against the load time', () => {
    const lukas = [...demo.contacts.values()].find((c) => c.name === 'Lukas Müller')!;
    expect(lukas.lastInteractionAt).toBe('2025-04-02T12:00:00.000Z'); // now-60d
  });
});

describe('buildState', () => {
  it('derives stable ids when none are given', () => {
    const fixture = {
      organizations: [{ name: 'A', apiKeys: [{ key: 'k', scopes: ['*'] }], tags: [{ name: 't' }] }],
    };
    const a = buildState(fixture, now);
    const b = buildState(fixture, now);
    expect([...a.orgs.keys()]).toEqual([...b.orgs.keys()]);
    expect([...[...a.orgs.values()][0].tags.keys()]).toEqual([...[...b.orgs.values()][0].tags.keys()]);
    expect(stableUuid('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('reports every problem with its path', () => {
    const broken = {
      organizations: [
        {
          name: 'B',
          apiKeys: [
            { key: 'k', scopes: ['tags.fly'] },
            { key: 'k', scopes: ['*'] },
          ],
          contacts: [{ name: 'C', phone: '12', stage: 'Nowhere', createdAt: 'last tuesday' }],
          segments: [{ name: '', filters: { status: 'gone' } }],
        },
      ],
    };
    let problems: string[] = [];
    try {
      buildState(broken as never, now);
    } catch (err) {
      problems = (err as FixtureError).problems;
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^organizations\[0\]\.apiKeys\[0\]\.scopes: Unknown scope 'tags.fly'/),
        'organizations[0].apiKeys[1].key: is used twice in the fixture',
        expect.stringMatching(/^organizations\[0\]\.contacts\[0\]\.phone:/),
        "organizations[0].contacts[0].stage: no stage 'Nowhere'",
        expect.stringMatching(/^organizations\[0\]\.contacts\[0\]\.createdAt:/),
        expect.stringMatching(/^organizations\[0\]\.segments\[0\]\.name:/),
        expect.stringMatching(/^organizations\[0\]\.segments\[0\]\.filters\.status:/),
      ]),
    );
  });

  it('refuses a fixture without organizations', () => {
    expect(() => buildState({} as never, now)).toThrow(FixtureError);
  });
});

describe('expandScopes', () => {
  it('expands * and *.read and refuses unknown scopes', () => {
    expect(expandScopes(['*']).size).toBe(24);
    expect(expandScopes(['*.read']).has('contacts.write')).toBe(false);
    expect(() => expandScopes(['contacts.delete'])).toThrow(/Unknown scope/);
  });
});
