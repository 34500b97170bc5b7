import type { Contact } from '@crm-rules/crm-contract';
import type { RuleAction } from '../../language/rules/format/rule-types';
import type { ResolvedAction } from '../../language/catalogue/catalogue';
import { decideSettlement, settleExclusion, type RunShape, type SettleState } from './settle-at-creation';
import { contactFixture } from '../execution/contact-fixture.spec-support';

const contact = (over: Partial<Contact> = {}): Contact =>
  contactFixture({ customFields: { plan: 'gold' }, ...over });

const ADD_VIP: [RuleAction, ResolvedAction] = [
  { type: 'add-tag', tag: 'vip' },
  { type: 'add-tag', tagId: 'tag-vip' },
];
const ADD_NEW: [RuleAction, ResolvedAction] = [
  { type: 'add-tag', tag: 'new' },
  { type: 'add-tag', tagId: 'tag-new' },
];
const REMOVE_VIP: [RuleAction, ResolvedAction] = [
  { type: 'remove-tag', tag: 'vip' },
  { type: 'remove-tag', tagId: 'tag-vip' },
];
const STAGE_NEW: [RuleAction, ResolvedAction] = [
  { type: 'move-stage', stage: 'New' },
  { type: 'move-stage', stageId: 'stage-new' },
];
const STAGE_WON: [RuleAction, ResolvedAction] = [
  { type: 'move-stage', stage: 'Won' },
  { type: 'move-stage', stageId: 'stage-won' },
];
const FIELD_SAME: [RuleAction, ResolvedAction] = [
  { type: 'set-field', key: 'plan', value: 'gold' },
  { type: 'set-field', key: 'plan', value: 'gold' },
];
const FIELD_OTHER: [RuleAction, ResolvedAction] = [
  { type: 'set-field', key: 'plan', value: 'silver' },
  { type: 'set-field', key: 'plan', value: 'silver' },
];
const ASSIGN_SAME: [RuleAction, ResolvedAction] = [
  { type: 'assign', member: 'Ana Ops' },
  { type: 'assign', memberId: 'm1' },
];

const shape = (actions: [RuleAction, ResolvedAction][], over: Partial<RunShape> = {}): RunShape => ({
  status: 'pending',
  priority: 'interactive',
  mode: 'live',
  paused: false,
  timing: undefined,
  actions: actions.map(([a]) => a),
  ...over,
});
const state = (actions: [RuleAction, ResolvedAction][], over: Partial<SettleState> = {}): SettleState => ({
  contactQuiet: true,
  contact: contact(),
  resolved: actions.map(([, r]) => r),
  ...over,
});

describe('decideSettlement', () => {
  it.each<[string, [RuleAction, ResolvedAction][], { reason: string }[]]>([
    ['add-tag of a tag the contact has', [ADD_VIP], [{ reason: 'no_change' }]],
    [
      'remove-tag of a tag the contact lacks',
      [[REMOVE_VIP[0], { type: 'remove-tag', tagId: 'tag-x' }]],
      [{ reason: 'no_change' }],
    ],
    ['move-stage to the current stage', [STAGE_NEW], [{ reason: 'no_change' }]],
    ['set-field to the value it holds', [FIELD_SAME], [{ reason: 'no_change' }]],
    ['assign to the current assignee', [ASSIGN_SAME], [{ reason: 'no_change' }]],
    ['two no-ops', [ADD_VIP, STAGE_NEW], [{ reason: 'no_change' }, { reason: 'no_change' }]],
  ])('settles %s, with each guard reason', (_name, actions, skips) => {
    const decided = decideSettlement(shape(actions), state(actions));
    expect(decided).toMatchObject({ settle: true, skips });
    if (decided.settle) for (const s of decided.skips) expect(s.detail).toEqual(expect.any(String));
  });

  it('records the guard detail the runner would record', () => {
    expect(decideSettlement(shape([ADD_VIP]), state([ADD_VIP]))).toEqual({
      settle: true,
      skips: [{ reason: 'no_change', detail: 'contact already has tag vip (tag-vip)' }],
    });
  });

  it.each<[string, [RuleAction, ResolvedAction][]]>([
    ['add-tag of a new tag', [ADD_NEW]],
    ['remove-tag of a tag the contact has', [REMOVE_VIP]],
    ['move-stage to another stage', [STAGE_WON]],
    ['set-field to another value', [FIELD_OTHER]],
    ['a no-op then a write', [ADD_VIP, STAGE_WON]],
    ['a write then a no-op', [STAGE_WON, ADD_VIP]],
  ])('leaves %s to the runner (a guard proceeds)', (_name, actions) => {
    expect(decideSettlement(shape(actions), state(actions))).toMatchObject({
      settle: false,
      why: expect.stringContaining('would call the CRM'),
    });
  });

  // Every exclusion, each on a run that would otherwise settle (add-tag vip on a contact with vip).
  it.each<[string, Partial<RunShape>, Partial<SettleState>, string]>([
    ['suppressed by admission', { status: 'suppressed' }, {}, 'admission'],
    ['paused', { paused: true }, {}, 'paused'],
    ['shadow', { mode: 'shadow' }, {}, 'shadow'],
    ['bulk (a sweep)', { priority: 'bulk' }, {}, 'bulk'],
    ['a wait', { timing: { waits: [{ beforeAction: 0, ms: 1000 }] } as RunShape['timing'] }, {}, 'waits'],
    ['a window', { timing: { window: {} } as RunShape['timing'] }, {}, 'windows'],
    ['a limit', { timing: { limit: { max: 1, perMs: 1000 } } as RunShape['timing'] }, {}, 'limit'],
    ['no action', { actions: [] }, { resolved: [] }, 'no action'],
    ['an unfinished run or a lease on the contact', {}, { contactQuiet: false }, 'unfinished run or a lease'],
    ['no contact state', {}, { contact: null }, 'no contact state'],
    ['a resolution that threw', {}, { resolved: { error: 'unknown tag "vip"' } }, 'resolution failed'],
  ])('does not settle: %s', (_name, run, st, why) => {
    expect(decideSettlement(shape([ADD_VIP], run), state([ADD_VIP], st))).toEqual({
      settle: false,
      why: expect.stringContaining(why),
    });
  });

  it.each<[string, RuleAction, ResolvedAction, Partial<Contact>, string]>([
    // Refused by its guard (blocked contact), yet a messaging action stays the runner's.
    [
      'a messaging action',
      { type: 'react', emoji: '👍' },
      { type: 'react', emoji: '👍' },
      { isBlocked: true },
      'messaging',
    ],
    [
      'assign-first',
      { type: 'send-message', text: 'hi', assignFirst: 'Ana Ops' },
      { type: 'send-message', text: 'hi' },
      { isBlocked: true },
      'messaging',
    ],
    [
      'a round-robin draw',
      { type: 'assign', member: 'round-robin' },
      { type: 'assign', memberId: 'm1' },
      {},
      'round-robin',
    ],
    [
      'an action type not in the catalogue',
      { type: 'gone' } as unknown as RuleAction,
      ADD_VIP[1],
      {},
      'catalogue',
    ],
  ])('does not settle %s', (_name, action, resolved, over, why) => {
    expect(
      decideSettlement(shape([[action, resolved]]), state([[action, resolved]], { contact: contact(over) })),
    ).toEqual({ settle: false, why: expect.stringContaining(why) });
  });

  it('says why before anything is read (settleExclusion), and nothing for a plain run', () => {
    expect(settleExclusion(shape([ADD_VIP]))).toBeUndefined();
    expect(settleExclusion(shape([ADD_VIP], { priority: 'bulk' }))).toContain('bulk');
    const assignFirstOnly = {
      type: 'open-conversation',
      channel: 'Main',
      assignFirst: 'Ana',
    } as unknown as RuleAction;
    expect(settleExclusion(shape([[assignFirstOnly, ADD_VIP[1]]]))).toContain('assign-first');
  });
});
