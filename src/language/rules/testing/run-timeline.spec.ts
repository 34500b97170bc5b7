// Limits and windows over time, as rule tests simulate them.
import { loadRulesFromFiles } from '../format/load-rules';
import { RunTimeline } from './run-timeline';

const RULES = `rule: queued
on: contact.updated
limit: { max: 2, per: 1h }
do: [{ add-tag: q }]
---
rule: skipped
on: contact.updated
limit: { max: 1, per: 1h, over: skip }
window: { hours: '09:00-18:00', timezone: UTC, outside: skip }
do: [{ add-tag: s }]
`;

describe('RunTimeline', () => {
  const set = loadRulesFromFiles([{ path: 'r.yaml', text: RULES }]).ruleSet!;
  const event = (iso: string) => ({
    event: { type: 'contact.updated', data: {} },
    contact: {},
    now: new Date(iso),
  });
  const done = (t: RunTimeline) =>
    t.done.splice(0).map((d) => `${d.rule}@${d.at.toISOString().slice(11, 16)}`);

  it('queues runs beyond the limit into the next period, or skips them', async () => {
    const t = new RunTimeline(set);
    for (const at of ['2024-05-06T10:00:00Z', '2024-05-06T10:10:00Z', '2024-05-06T10:20:00Z'])
      await t.event(event(at));
    expect(done(t)).toEqual(['queued@10:00', 'skipped@10:00', 'queued@10:10']);
    t.advanceTo(new Date('2024-05-06T10:59:00Z'));
    expect(done(t)).toEqual([]);
    t.advanceTo(new Date('2024-05-06T11:00:00Z'));
    expect(done(t)).toEqual(['queued@11:00']);
    expect(t.log.filter((l) => l.includes('rate limited'))).toHaveLength(3);
  });

  it('skips a run outside its window with the reason', async () => {
    const t = new RunTimeline(set, 'skipped');
    await t.event(event('2024-05-06T20:00:00Z'));
    expect(done(t)).toEqual([]);
    expect(t.log.at(-1)).toBe(
      '  2024-05-06T20:00:00.000Z rule skipped: cancelled: skipped: outside the window mon,tue,wed,thu,fri,sat,sun 09:00-18:00 UTC',
    );
  });
});
