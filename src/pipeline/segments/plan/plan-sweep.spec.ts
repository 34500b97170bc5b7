import type { RuleDefinition, ScheduleTrigger } from '../../../language/rules/format/rule-types';
import type { MirrorFreshness } from '../../contact-mirror/mirror-policy';
import type { MirroredContact } from '../../../language/crm-terms/mirrored-contact';
import { planSweep, type PlanInput } from './plan-sweep';
import { resolveRelativeDates } from '../../../language/segment-filters/resolved-filters';

const NOW = new Date('2025-06-15T12:00:00Z');
const DORMANT = '7a000000-0000-4000-8000-000000000004';

const trigger: ScheduleTrigger = {
  kind: 'schedule',
  cron: '0 6 * * *',
  segment: { filters: { lastInteractionBefore: 'now-30d' } },
  when: 'entered',
  onLeave: [{ type: 'remove-tag', tag: 'dormant' }],
};
const rule: RuleDefinition = {
  id: 'dormant',
  source: { file: 'rules/dormant.yaml', line: 1, col: 1 },
  version: 'v1',
  trigger,
  actions: [{ type: 'add-tag', tag: 'dormant' }],
  enabled: true,
  priority: 0,
  mode: 'live',
};
const mirror: MirrorFreshness = {
  contacts: 3,
  fullSync: null,
  lastFullSyncAt: '2025-06-15T00:00:00.000Z',
  lastIncrementalAt: null,
  lastEventAt: null,
  watermarkCreatedAt: null,
  freshAt: '2025-06-15T00:00:00.000Z',
  listCalls: 1,
};

function person(id: string, tagIds: string[]): MirroredContact {
  return {
    id,
    name: id,
    phone: '5511900000000',
    email: null,
    avatar: null,
    notes: null,
    status: 'active',
    isBlocked: false,
    sourceMethod: 'MANUAL',
    assigneeId: null,
    stageId: null,
    tagIds,
    tags: tagIds.map((t) => ({ id: t, name: 'dormant', color: '' })),
    customFields: {},
    country: 'BR',
    createdAt: new Date('2025-01-01T00:00:00Z'),
    updatedAt: new Date('2025-01-01T00:00:00Z'),
    lastInteractionAt: new Date('2025-01-01T00:00:00Z'),
  };
}

function input(over: Partial<PlanInput> = {}): PlanInput {
  const entering = [person('a', []), person('b', [DORMANT])];
  return {
    rule,
    trigger,
    now: NOW,
    filters: resolveRelativeDates(trigger.segment.filters, NOW),
    counts: { evaluated: 3, members: 2, entering: 2, leaving: 1, gone: 0 },
    entering,
    leaving: [person('c', [DORMANT])],
    acting: entering,
    actions: [{ action: rule.actions[0], resolved: { type: 'add-tag', tagId: DORMANT } }],
    onLeave: [{ action: trigger.onLeave[0], resolved: { type: 'remove-tag', tagId: DORMANT } }],
    mirror,
    mirrorRefreshCalls: 1,
    segmentSyncCall: false,
    budget: { limit: 300, windowMs: 60_000, usedInWindow: 0 },
    waitMs: 0,
    sampleSize: 10,
    ...over,
  };
}

describe('planSweep', () => {
  it('counts only the calls the guards let through', () => {
    const plan = planSweep(input());
    expect(plan.actions).toEqual([
      expect.objectContaining({ on: 'member', contacts: 2, calls: 1, skipped: { no_change: 1 } }),
      expect.objectContaining({ on: 'leave', contacts: 1, calls: 1, skipped: {} }),
    ]);
    expect(plan.crmCalls).toEqual({ mirrorRefresh: 1, segmentSync: 0, actions: 2, total: 3 });
  });

  it('prices the calls at the current budget, after the wait for a slot', () => {
    expect(planSweep(input()).estimatedMs).toBe(600); // 3 calls at 300/min
    expect(planSweep(input({ waitMs: 1500 })).estimatedMs).toBe(2100);
  });

  it('lists who enters and leaves, up to the sample size', () => {
    const plan = planSweep(input({ sampleSize: 1 }));
    expect(plan.entering).toEqual([{ id: 'a', name: 'a', phone: '5511900000000' }]);
    expect(plan.leaving.map((c) => c.id)).toEqual(['c']);
    expect(plan.truncated).toBe(true);
  });

  it('guards each action against the state the previous ones leave', () => {
    const twice = [
      { action: rule.actions[0], resolved: { type: 'add-tag' as const, tagId: DORMANT } },
      { action: rule.actions[0], resolved: { type: 'add-tag' as const, tagId: DORMANT } },
    ];
    const plan = planSweep(input({ actions: twice, acting: [person('a', [])] }));
    expect(plan.actions.slice(0, 2).map((a) => a.calls)).toEqual([1, 0]);
  });

  it('counts the segment creation and shadow mode makes no action calls', () => {
    const plan = planSweep(input({ rule: { ...rule, mode: 'shadow' }, segmentSyncCall: true }));
    expect(plan.crmCalls).toEqual({ mirrorRefresh: 1, segmentSync: 1, actions: 0, total: 2 });
    expect(plan.notes).toContain('shadow mode: runs are recorded, no action calls the CRM');
  });

  it('reports an action whose names could not be resolved', () => {
    const plan = planSweep(input({ actions: [{ action: rule.actions[0], problem: 'no tag "dormant"' }] }));
    expect(plan.actions[0]).toMatchObject({
      calls: 0,
      skipped: { unresolved: 2 },
      problem: 'no tag "dormant"',
    });
    expect(plan.notes).toContain('add-tag: no tag "dormant"');
  });
});
