// Names in rules resolved through the sandbox: cached, refreshed on a miss (but not in a
// loop), and a round-robin rotation shared by every process through Redis.
import { UnknownNameError } from '../../../src/language/crm-terms/directory-match';
import { DEMO, KEYS } from '../../support/demo-fixture';
import { recordArrivals, useCrmSuite } from './crm-test-kit';

jest.setTimeout(60_000);

describe('CrmDirectory against the sandbox', () => {
  const crm = useCrmSuite('crm-directory', { limit: 300, windowMs: 60_000 });

  it('resolves names, emails and ids of tags, stages, members and channels', async () => {
    const d = crm.a.directory;
    expect((await d.resolveTag('vip')).id).toBe(DEMO.tags.vip);
    expect((await d.resolveTag(DEMO.tags.dormant)).name).toBe('dormant');
    expect((await d.resolveStage('new lead')).id).toBe(DEMO.stages.newLead);
    expect((await d.resolveMember('ben@demo.test')).name).toBe('Ben Sales');
    expect((await d.resolveMember('Cara Support')).email).toBe('cara@demo.test');
    expect(await d.resolveChannel('Old Line')).toMatchObject({
      id: DEMO.channels.oldLine,
      status: 'disconnected',
    });
    expect(await d.resolveChannel(DEMO.channels.main)).toMatchObject({ status: 'connected' });
  });

  it('serves repeated lookups from its cache', async () => {
    // Fill all three caches here, so this test does not lean on the one before it.
    await crm.a.directory.resolveTag('vip');
    await crm.a.directory.resolveStage('New lead');
    await crm.a.directory.resolveChannel('Old Line');
    const recorder = recordArrivals();
    try {
      await crm.a.directory.resolveTag('ad-lead');
      await crm.a.directory.resolveStage('Customer');
      await crm.a.directory.resolveChannel('Main WhatsApp');
    } finally {
      recorder.stop();
    }
    expect(recorder.arrivals).toHaveLength(0);
  });

  it('finds a tag created after the cache was filled, by refreshing on the miss', async () => {
    await crm.b.directory.resolveTag('vip'); // fill b's cache
    // Someone creates the tag in the CRM (the engine itself never creates tags).
    const created = await fetch(`${crm.sandbox.url}/v1/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fresh-tag', color: '#123456' }),
    });
    expect(created.status).toBe(201);
    expect((await crm.b.directory.resolveTag('fresh-tag')).name).toBe('fresh-tag');
  });

  it('throws UnknownNameError for a name the CRM does not know, reloading once, not on every run', async () => {
    await crm.a.directory.resolveStage('Customer');
    const recorder = recordArrivals();
    try {
      for (let run = 0; run < 3; run++) {
        const err = await crm.a.directory.resolveStage('Nope').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(UnknownNameError);
        expect(err).toMatchObject({ kind: 'stage', unknownName: 'Nope' });
      }
    } finally {
      recorder.stop();
    }
    expect(recorder.arrivals).toHaveLength(1);
  });

  it('rotates round robin over active members, shared between processes', async () => {
    const picks: string[] = [];
    for (let i = 0; i < 6; i++)
      picks.push((await (i % 2 ? crm.b : crm.a).directory.nextRoundRobinMember()).email);
    // Dan Former is inactive; the three others come in turn, whichever process asks.
    expect(new Set(picks.slice(0, 3)).size).toBe(3);
    expect(picks.slice(3)).toEqual(picks.slice(0, 3));
    expect(picks).not.toContain('dan@demo.test');
  });
});
