import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DEMO } from '../support/demo-fixture';
import { api } from '../support/http';
import { eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { ensureBuilt, WorkerProcesses } from '../support/worker-process';
import { consoleCookie } from '../console/console-login';

const MESSAGE_ROUTE = 'POST /v1/messages';
const hhmm = (d: Date) => d.toISOString().slice(11, 16);

/**
 * Quiet hours that began an hour ago and end at the first whole minute at least 30 s from now
 * (UTC): the way the timing tests place windows around the real clock, so nothing waits hours.
 * Written once the harness is up (its boot is the slow part), before the worker starts and reads it.
 */
function quietHoursEndingSoon(): { end: Date; yaml: string } {
  const end = new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000);
  const from = hhmm(new Date(end.getTime() - 3_600_000));
  return { end, yaml: `quiet-hours: { from: "${from}", to: "${hhmm(end)}", zone: UTC }\n` };
}

// Issue 24: a message due in quiet hours goes out at the first allowed minute, across an engine
// restart. The run waits on the ledger and a BullMQ delayed job, like a window: the worker that
// deferred it dies, the quiet hours end while no worker runs, a new worker sends it once.
describe('a message due in quiet hours', () => {
  let h: Harness;
  const workers = new WorkerProcesses();

  beforeAll(async () => {
    ensureBuilt();
    h = await startHarness({
      rules: {
        'hello.yaml': [
          'rule: hello',
          'on: contact.created',
          'do:',
          '  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }',
          '',
        ].join('\n'),
      },
      env: { ROLE: 'api' },
    });
  }, 120_000);
  afterAll(async () => {
    workers.killAll();
    await h?.stop();
  });

  it('goes out at the first allowed minute, once, after a restart', async () => {
    const counters = async () =>
      (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[MESSAGE_ROUTE] ?? 0;
    const before = await counters();
    const { end, yaml } = quietHoursEndingSoon();
    writeFileSync(join(h.rulesDir, 'policy.yaml'), yaml);
    const first = workers.start(h).child;
    const contact = await newContact(h, 'Quinn Quiet', { assigneeId: DEMO.members.ana });
    const db = h.app.get(DataSource);
    const run = async () =>
      (
        await db.query(`SELECT id, status, waiting_until, timeline FROM runs WHERE contact_id = $1`, [
          contact.id,
        ])
      )[0];
    const waiting = await eventually(
      async () => ((await run())?.status === 'waiting' ? run() : undefined),
      60_000,
    );
    expect(waiting.waiting_until.toISOString()).toBe(end.toISOString());
    expect(waiting.timeline).toEqual([
      expect.objectContaining({
        step: 'waiting',
        for: 'policy',
        reason: 'quiet_hours',
        until: end.toISOString(),
      }),
    ]);
    // The console's run page says why the run waits.
    const cookie = await consoleCookie(h.url);
    const page = await (await fetch(`${h.url}/console/runs/${waiting.id}`, { headers: { cookie } })).text();
    expect(page).toContain('(policy: quiet_hours, quiet hours');
    first.kill('SIGKILL');
    // No worker while the quiet hours end.
    await eventually(async () => (Date.now() > end.getTime() + 500 ? true : undefined), 90_000, 200);
    expect((await run()).status).toBe('waiting');
    expect((await counters()) - before).toBe(0);

    workers.start(h);
    const done = await eventually(
      async () => ((await run())?.status === 'succeeded' ? run() : undefined),
      60_000,
      200,
    );
    expect(done.timeline.map((e: { step: string }) => e.step)).toEqual(['waiting', 'resumed']);
    const [sent] = await db.query(
      `SELECT a.status, a.started_at FROM runs r JOIN action_results a ON a.run_id = r.id WHERE r.contact_id = $1`,
      [contact.id],
    );
    expect(sent.status).toBe('succeeded');
    expect(sent.started_at.getTime()).toBeGreaterThanOrEqual(end.getTime());
    expect((await counters()) - before).toBe(1);
  }, 240_000);
});
