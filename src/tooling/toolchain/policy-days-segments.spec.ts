// Issue 33: `forecast` and `diff` judge quiet days per category (the policy's holiday calendars)
// and segment suppression as the engine and rule tests do (judgeMessage), on the contacts they
// replay: on Christmas Day a marketing message to a contact in the `vips` segment is suppressed,
// to another deferred past the holiday; a service message goes (no quiet days).
import { SNAPSHOT_FORMAT } from '../../language/crm-terms/crm-snapshot';
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import { contact } from '../../language/segment-filters/segment-filter.spec-support';
import { forecast } from './forecast';
import type { RecordedEvent } from './recorded-events';
import { diffRuleSets } from './rule-diff';
import { SnapshotDirectory } from './snapshot-directory';

const CHRISTMAS = '2026-12-25T10:00:00Z';
const VIP = 'c0000000-0000-4000-8000-0000000000a1';
const POLICY = [
  'calendars: { holidays: { dates: [2026-12-25] } }',
  'default-category: service',
  'categories:',
  '  service: {}',
  '  marketing: { quiet-days: [holidays] }',
  'suppress:',
  '  - { segment: vips, categories: [marketing] }',
  '',
].join('\n');
const VIPS = [
  'rule: vips',
  'on:',
  "  schedule: '0 4 * * *'",
  '  segment: { name: vips, filters: { tagIds: [vip] } }',
  'do:',
  '  - add-tag: seen',
  '',
].join('\n');
const sweepOffer = [
  'rule: offer',
  'on:',
  "  schedule: '0 10 * * *'",
  '  segment: { name: Active, filters: { status: active } }',
  'when: every-run',
  'category: marketing',
  'do:',
  '  - send-message: Holiday offer',
  '',
].join('\n');
const eventRules = [
  'rule: offer',
  'on: contact.created',
  'category: marketing',
  'do:',
  '  - send-message: Holiday offer',
  '---',
  'rule: receipt',
  'on: contact.created',
  'do:',
  '  - send-message: Your receipt',
  '',
].join('\n');

function setOf(files: Record<string, string>) {
  const loaded = loadRulesFromFiles(Object.entries(files).map(([path, text]) => ({ path, text })));
  if (!loaded.ruleSet) throw new Error(JSON.stringify(loaded.problems));
  return loaded.ruleSet;
}

describe('quiet days and segment suppression offline', () => {
  it('forecast: the vip suppressed, the other deferred past the holiday', async () => {
    const set = setOf({ 'policy.yaml': POLICY, 'vips.yaml': VIPS, 'offer.yaml': sweepOffer });
    const vip = contact({ id: 'vip-1' });
    const other = contact({ id: 'other-1', tagIds: [], tags: [] });
    const f = await forecast({
      rules: set.rules,
      contacts: [vip, other],
      directory: new SnapshotDirectory({
        format: SNAPSHOT_FORMAT,
        takenAt: CHRISTMAS,
        source: 'test',
        tags: [{ id: vip.tagIds[0], name: 'vip' }],
        stages: [],
        channels: [],
        members: [],
        customFields: [],
        templates: [],
      }),
      now: new Date(CHRISTMAS),
      budget: { limit: 300, windowMs: 60_000, bulkMinShare: 0.2 },
      eventCallsPerMinute: 0,
      policy: set.policy,
    });
    const offer = f.rules.find((r) => r.rule === 'offer')!;
    expect([offer.actions[0].sent, offer.actions[0].deferred, offer.actions[0].skipped]).toEqual([
      0,
      { quiet_hours: 1 },
      { suppressed: 1 },
    ]);
  });

  it('diff: adding the policy holds the vip offer (suppressed), defers the other, leaves the receipt', async () => {
    const created = (id: string, tags: { id: string; name: string }[]): RecordedEvent => ({
      id: `e-${id}`,
      type: 'contact.created',
      createdAt: CHRISTMAS,
      data: { id, name: id, createdAt: '2026-01-01T00:00:00Z', tags },
      contactId: id,
    });
    const events = [created('vip-1', [{ id: VIP, name: 'vip' }]), created('other-1', [])];
    const base = setOf({ 'vips.yaml': VIPS, 'r.yaml': eventRules.replace(/category: marketing\n/, '') });
    const head = setOf({ 'policy.yaml': POLICY, 'vips.yaml': VIPS, 'r.yaml': eventRules });
    const diff = await diffRuleSets(base.rules, head.rules, events, 5, undefined, {
      base: base.policy,
      head: head.policy,
    });
    const offer = diff.rules.find((r) => r.rule === 'offer')!;
    const lost = offer.lost.examples.flatMap((e) => e.actions);
    expect(lost).toContain('send-message "Holiday offer" (now skipped: suppressed)');
    expect(offer.gained.examples.flatMap((e) => e.actions)).toContain(
      'send-message "Holiday offer" (deferred quiet_hours)',
    );
    expect(diff.rules.find((r) => r.rule === 'receipt')).toBeUndefined();
  });
});
