import type { RuleAction } from '../format/rule-types';
import { GuardedContact, skipText, type SkipOf } from './live-guards';

// The guards a rule test applies, action by action: assign-first, then the message's guard (the
// catalogue's, as the runner calls it); the writes to assignee and blocked state carry over.
const send = { type: 'send-message', text: 'Hi' } as RuleAction;
const sendFirst = { type: 'send-message', text: 'Hi', assignFirst: 'round-robin' } as RuleAction;
const template = { type: 'send-template', name: 'welcome' } as RuleAction;
const react = { type: 'react', emoji: '👍' } as RuleAction;
const tag = { type: 'add-tag', tag: 'vip' } as RuleAction;
const assign = { type: 'assign', member: 'Ana Ops' } as RuleAction;
const unassign = { type: 'unassign' } as RuleAction;
const block = { type: 'block' } as RuleAction;
const unblock = { type: 'unblock' } as RuleAction;

const ASSIGNED = { id: 'c1', assigneeId: 'm1', isBlocked: false };
const UNASSIGNED = { id: 'c1', assigneeId: null, isBlocked: false };
const BLOCKED = { id: 'c1', assigneeId: 'm1', isBlocked: true };
const NO_ASSIGNEE: SkipOf = { reason: 'needs_assignee', detail: 'contact c1 has no assignee' };
const IS_BLOCKED: SkipOf = { reason: 'contact_blocked', detail: 'contact c1 is blocked' };

it.each<[string, Record<string, unknown>, RuleAction[], (SkipOf | undefined)[]]>([
  ['a message to an assigned contact goes', ASSIGNED, [send], [undefined]],
  ['no assignee: needs_assignee', UNASSIGNED, [send], [NO_ASSIGNEE]],
  ['a template and a reaction need one too', UNASSIGNED, [template, react], [NO_ASSIGNEE, NO_ASSIGNEE]],
  ['blocked: contact_blocked, before the assignee', { ...BLOCKED, assigneeId: null }, [send], [IS_BLOCKED]],
  ['assign-first assigns, then the message goes', UNASSIGNED, [sendFirst, send], [undefined, undefined]],
  [
    'assign-first does not assign a blocked contact',
    { ...BLOCKED, assigneeId: null },
    [sendFirst],
    [IS_BLOCKED],
  ],
  ['an assign before the message', UNASSIGNED, [assign, send], [undefined, undefined]],
  ['an unassign before it', ASSIGNED, [unassign, send], [undefined, NO_ASSIGNEE]],
  ['a block before it', ASSIGNED, [block, send], [undefined, IS_BLOCKED]],
  ['an unblock before it', BLOCKED, [unblock, send], [undefined, undefined]],
  ['actions that send nothing are not guarded here', { ...BLOCKED, assigneeId: null }, [tag], [undefined]],
])('%s', (_name, contact, actions, expected) => {
  const guarded = new GuardedContact();
  expect(actions.map((a) => guarded.guard(a, guarded.over(contact)))).toEqual(expected);
});

describe('the writes kept for later actions', () => {
  it('keep an assignment until the test changes the assignee itself', () => {
    const guarded = new GuardedContact();
    guarded.guard(assign, guarded.over(UNASSIGNED));
    expect(guarded.over(UNASSIGNED)).toEqual({ ...UNASSIGNED, assigneeId: 'Ana Ops' });
    // A later step that changes another field keeps the rule's write.
    guarded.changed(UNASSIGNED, { ...UNASSIGNED, name: 'Ana' });
    expect(guarded.guard(send, guarded.over(UNASSIGNED))).toBeUndefined();
    // One that sets the assignee is the test's word.
    guarded.changed(UNASSIGNED, { ...UNASSIGNED, assigneeId: 'm2' });
    expect(guarded.over(UNASSIGNED)).toEqual(UNASSIGNED);
  });

  it('no contact (a test without one): nothing to guard', () => {
    expect(new GuardedContact().guard(send, undefined)).toBeUndefined();
  });
});

it('skipText names the reason and the detail', () => {
  expect(skipText(NO_ASSIGNEE)).toBe('skipped: needs_assignee (contact c1 has no assignee)');
  expect(skipText(undefined)).toBe('');
});
