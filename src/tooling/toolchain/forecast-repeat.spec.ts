// forecast over an ask-again `repeat` and a `call:` (issue 34, goal 4): the unrolled plan is plain
// steps, so each member's run asks once (the wait's outcome is taken as on-timeout: no answer is
// known), the repetitions and the exhausted arm are reached by no one, and a called list's actions
// are counted as the rule's own.
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import { SNAPSHOT_FORMAT } from '../../language/crm-terms/crm-snapshot';
import { contact } from '../../language/segment-filters/segment-filter.spec-support';
import { forecast } from './forecast';
import { SnapshotDirectory } from './snapshot-directory';

const NOW = new Date('2026-11-02T10:00:00Z');
const directory = new SnapshotDirectory({
  format: SNAPSHOT_FORMAT,
  takenAt: NOW.toISOString(),
  source: 'test',
  tags: ['asked', 'silent', 'needs-human'].map((name) => ({ id: `tag-${name}`, name })),
  stages: [],
  channels: [],
  members: [],
  customFields: [],
  templates: [],
});
const CONTACTS = ['ana', 'bruno', 'carla'].map((id) =>
  contact({ id, name: id, assigneeId: 'member-1', tags: [], tagIds: [], createdAt: NOW, updatedAt: NOW }),
);
const RULE = `rule: menu
on:
  schedule: '0 6 * * *'
  segment: { name: Active, filters: { status: active } }
when: every-run
do:
  - call: mark
  - repeat: 3
    do:
      - send-message: 'Reply 1 or 2'
      - wait: 1h
        until: { event: message.created }
        on-event:
          - if: { fact: message.text, operator: equal, value: '1' }
            then: [{ add-tag: asked }]
            else: [again]
        on-timeout: [{ add-tag: silent }]
    exhausted: [{ add-tag: needs-human }]
`;
const STEPS = `steps: mark\ndo:\n  - add-tag: asked\n`;

it('asks each member once, counts the called steps, reaches no repetition', async () => {
  const loaded = loadRulesFromFiles([
    { path: 'r.yaml', text: RULE },
    { path: 'steps/mark.yaml', text: STEPS },
  ]);
  expect(loaded.problems).toEqual([]);
  const f = await forecast({
    rules: loaded.ruleSet!.rules,
    contacts: CONTACTS,
    directory,
    now: NOW,
    budget: { limit: 300, windowMs: 60_000, bulkMinShare: 0.2 },
    eventCallsPerMinute: 0,
  });
  const [r] = f.rules;
  const sent = (label: string) => r.actions.filter((a) => a.action.startsWith(label)).map((a) => a.sent);
  expect(sent('send-message')).toEqual([3, 0, 0]);
  expect(sent('add-tag "asked"')[0]).toBe(3); // the call's step, before the repeat
  expect(sent('add-tag "needs-human"')).toEqual([0]);
  expect(sent('add-tag "silent"')).toEqual([0, 0, 3]);
  const repeats = r.branches!.filter((b) => b.branch.startsWith('repeat'));
  expect(repeats.flatMap((b) => b.arms)).toEqual([
    { label: 'repeat:2', contacts: 0 },
    { label: 'repeat:3', contacts: 0 },
    { label: 'exhausted', contacts: 0 },
  ]);
});
