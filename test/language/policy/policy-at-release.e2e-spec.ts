import { DataSource } from 'typeorm';
import { DEMO } from '../../support/demo-fixture';
import { apiWithWorkers, sandboxCalls } from '../../support/api-with-workers';
import { eventually, newContact } from '../../support/engine-harness';

const MESSAGE_ROUTE = 'POST /v1/messages';
/** The first allowed minute of quiet hours 21:00-08:00 (UTC). */
const QUIET_END = new Date('2030-01-15T08:00:00Z');
/** The engine clock when the worker is spawned: in the quiet hours, a little before their end. */
const ENGINE_START = new Date('2030-01-15T07:59:00Z');
const IDS = ['alpha', 'bravo', 'charlie'];

// Issue 33, "offline tools disagree with the engine": the engine's side of the case rule tests,
// forecast and diff reproduce in src/tooling/toolchain/policy-at-release.spec.ts. Cap of one message a day,
// quiet hours 21:00-08:00, three rules message one contact in the quiet hours: all three wait for
// the policy; at 08:00 one message goes and the other two are recorded `policy_cap`.
describe('three rules messaging in quiet hours under a cap of one a day', () => {
  const engine = apiWithWorkers({
    ...Object.fromEntries(
      IDS.map((id) => [
        `${id}.yaml`,
        `rule: ${id}\non: contact.created\ndo:\n  - send-message: { text: "${id} says hi", channel: Main WhatsApp }\n`,
      ]),
    ),
    'policy.yaml': 'caps: [{ max: 1, per: 1d }]\nquiet-hours: { from: "21:00", to: "08:00", zone: UTC }\n',
  });

  it('sends one message at 08:00 and records the other two policy_cap', async () => {
    const { h, workers } = engine;
    const counters = () => sandboxCalls(h, MESSAGE_ROUTE);
    const before = await counters();
    const offset = ENGINE_START.getTime() - Date.now();
    await workers.start(h, { ENGINE_CLOCK_OFFSET_MS: String(offset) }).ready;
    const contact = await newContact(h, 'Quinn Release', { assigneeId: DEMO.members.ana });
    const db = h.app.get(DataSource);
    const runs = async (): Promise<{ rule_id: string; status: string; timeline: { step: string }[] }[]> =>
      db.query(`SELECT rule_id, status, timeline FROM runs WHERE contact_id = $1 ORDER BY rule_id`, [
        contact.id,
      ]);
    const done = await eventually(
      async () => {
        const rows = await runs();
        return rows.length === 3 && rows.every((r) => r.status === 'succeeded') ? rows : undefined;
      },
      150_000,
      200,
    );
    // Each run waited for the quiet hours first: the caps were judged at release.
    for (const r of done)
      expect(r.timeline[0]).toMatchObject({ step: 'waiting', for: 'policy', reason: 'quiet_hours' });
    const actions: { status: string; reason: string | null }[] = await db.query(
      `SELECT a.status, a.reason FROM runs r JOIN action_results a ON a.run_id = r.id WHERE r.contact_id = $1`,
      [contact.id],
    );
    expect(actions.map((a) => `${a.status} ${a.reason ?? ''}`.trim()).sort()).toEqual([
      'skipped policy_cap',
      'skipped policy_cap',
      'succeeded',
    ]);
    const sent: { started_at: Date }[] = await db.query(
      `SELECT a.started_at FROM runs r JOIN action_results a ON a.run_id = r.id
        WHERE r.contact_id = $1 AND a.status = 'succeeded'`,
      [contact.id],
    );
    // started_at is Postgres's (real) clock: on the engine clock it is at or after 08:00.
    expect(sent[0].started_at.getTime() + offset).toBeGreaterThanOrEqual(QUIET_END.getTime());
    expect((await counters()) - before).toBe(1);
  }, 240_000);
});
