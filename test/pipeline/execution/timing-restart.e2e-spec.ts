import { DataSource } from 'typeorm';
import { api } from '../../support/http';
import { crm, eventually, newContact, Harness, startHarness } from '../../support/engine-harness';
import { ensureBuilt, WorkerProcesses } from '../../support/worker-process';

const TAG_ROUTE = 'POST /v1/contacts/:contactId/tags/:tagId';

// A run waits on a BullMQ delayed job, not a timer: the worker that started the wait dies, the
// wait ends while no worker runs, a new worker starts. The action happens once, not zero or twice.
describe('an engine restart during a wait', () => {
  let h: Harness;
  const workers = new WorkerProcesses();
  const startWorker = () => workers.start(h).child;

  beforeAll(async () => {
    ensureBuilt();
    h = await startHarness({
      rules: {
        'welcome.yaml': [
          'rule: welcome-later',
          'on: contact.created',
          'do:',
          '  - wait: 4s',
          '  - add-tag: welcomed',
          '',
        ].join('\n'),
      },
      env: { ROLE: 'api' },
    });
    expect((await crm(h, 'POST', '/v1/tags', { name: 'welcomed' })).status).toBe(201);
  });
  afterAll(async () => {
    workers.killAll();
    await h?.stop();
  });

  it('neither loses nor repeats the action', async () => {
    const before = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[TAG_ROUTE] ?? 0;
    const first = startWorker();
    const contact = await newContact(h, 'Rita Restart');
    const db = h.app.get(DataSource);
    const runStatus = async () =>
      (
        await db.query(`SELECT id, status, waiting_until, timeline FROM runs WHERE contact_id = $1`, [
          contact.id,
        ])
      )[0];
    const waiting = await eventually(async () => {
      const run = await runStatus();
      return run?.status === 'waiting' ? run : undefined;
    }, 30_000);
    first.kill('SIGKILL');
    // No worker while the wait ends.
    await eventually(
      async () => (Date.now() > waiting.waiting_until.getTime() + 500 ? true : undefined),
      20_000,
      200,
    );
    expect((await runStatus()).status).toBe('waiting');

    startWorker();
    const done = await eventually(
      async () => {
        const run = await runStatus();
        return run?.status === 'succeeded' ? run : undefined;
      },
      60_000,
      200,
    );
    expect(done.timeline.map((e: { step: string }) => e.step)).toEqual(['waiting', 'resumed']);
    const fresh = (await crm(h, 'GET', `/v1/contacts/${contact.id}`)).body;
    expect(fresh.tags.map((t: { name: string }) => t.name)).toContain('welcomed');
    const after = (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[TAG_ROUTE];
    expect(after - before).toBe(1);
  }, 120_000);
});
