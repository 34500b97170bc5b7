import { DataSource } from 'typeorm';
import { DEMO } from '../../support/demo-fixture';
import { apiWithWorkers, sandboxCalls } from '../../support/api-with-workers';
import { eventually, newContact } from '../../support/engine-harness';
import { consoleCookie } from '../../operator/console/console-login';

const MESSAGE_ROUTE = 'POST /v1/messages';
/** The organization's zone: not UTC, and half an hour off it, so the zone is really applied. */
const ZONE = 'Asia/Kolkata';
/** The first allowed minute of quiet hours 22:00–07:00 in ZONE, on a fixed day (no DST there). */
const QUIET_END = new Date('2030-01-15T07:00:00+05:30');
/**
 * Where the workers' engine clock stands when the first one is spawned: a minute before the end,
 * room for the worker to boot and the event to reach it while the quiet hours still hold.
 */
const ENGINE_START = new Date('2030-01-15T06:59:00+05:30');

// Issue 24: a message due in quiet hours goes out at the first allowed minute, across an engine
// restart. The workers run on an engine clock moved by ENGINE_CLOCK_OFFSET_MS (the same offset for
// both, as for every process of one engine): 06:59 in the organization's zone, with time passing at
// the real rate. The run waits on the ledger and a BullMQ delayed job, like a window: the worker
// that deferred it dies, the quiet hours end while no worker runs, a new worker sends it once.
describe('a message due in quiet hours', () => {
  const engine = apiWithWorkers({
    'hello.yaml': [
      'rule: hello',
      'on: contact.created',
      'do:',
      '  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }',
      '',
    ].join('\n'),
    'policy.yaml': [
      `timezone: ${ZONE}`,
      'quiet-hours: { from: "22:00", to: "07:00", zone: contact }',
      '',
    ].join('\n'),
  });

  it('goes out at the first allowed minute, once, after a restart', async () => {
    const { h, workers } = engine;
    const counters = () => sandboxCalls(h, MESSAGE_ROUTE);
    const before = await counters();
    const offset = ENGINE_START.getTime() - Date.now();
    const engineNow = () => new Date(Date.now() + offset);
    const clock = { ENGINE_CLOCK_OFFSET_MS: String(offset) };
    const first = workers.start(h, clock).child;
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
    // Deferred to 07:00 in the organization's zone, 01:30 UTC, by the engine clock.
    expect(QUIET_END.toISOString()).toBe('2030-01-15T01:30:00.000Z');
    expect(waiting.waiting_until.toISOString()).toBe(QUIET_END.toISOString());
    expect(waiting.timeline).toEqual([
      expect.objectContaining({
        step: 'waiting',
        for: 'policy',
        reason: 'quiet_hours',
        until: QUIET_END.toISOString(),
      }),
    ]);
    expect(new Date(waiting.timeline[0].at).getTime()).toBeGreaterThanOrEqual(ENGINE_START.getTime());
    // The console's run page says why the run waits.
    const cookie = await consoleCookie(h.url);
    const page = await (await fetch(`${h.url}/console/runs/${waiting.id}`, { headers: { cookie } })).text();
    expect(page).toContain('(policy: quiet_hours, quiet hours');
    first.kill('SIGKILL');
    // No worker while the quiet hours end (on the engine clock).
    await eventually(
      async () => (engineNow().getTime() > QUIET_END.getTime() + 500 ? true : undefined),
      90_000,
      200,
    );
    expect((await run()).status).toBe('waiting');
    expect((await counters()) - before).toBe(0);

    workers.start(h, clock);
    const done = await eventually(
      async () => ((await run())?.status === 'succeeded' ? run() : undefined),
      60_000,
      200,
    );
    expect(done.timeline.map((e: { step: string }) => e.step)).toEqual(['waiting', 'resumed']);
    expect(new Date(done.timeline[1].at).getTime()).toBeGreaterThanOrEqual(QUIET_END.getTime());
    const sends = await db.query(
      `SELECT a.status, a.started_at FROM runs r JOIN action_results a ON a.run_id = r.id WHERE r.contact_id = $1`,
      [contact.id],
    );
    expect(sends.map((s: { status: string }) => s.status)).toEqual(['succeeded']);
    // started_at is Postgres's (real) clock: on the engine clock it is at or after 07:00.
    expect(sends[0].started_at.getTime() + offset).toBeGreaterThanOrEqual(QUIET_END.getTime());
    expect((await counters()) - before).toBe(1);
  }, 240_000);
});
