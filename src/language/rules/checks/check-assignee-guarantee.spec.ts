import {
  conditionsRequireAssignee,
  messagesWithoutAssignee,
  segmentRequiresAssignee,
} from './check-assignee-guarantee';
import type { RuleAction } from '../format/rule-types';

const send = { type: 'send-message', text: 'Hi' } as RuleAction;
const sendFirst = { type: 'send-message', text: 'Hi', assignFirst: 'round-robin' } as RuleAction;
const assign = { type: 'assign', member: 'round-robin' } as RuleAction;
const unassign = { type: 'unassign' } as RuleAction;
const tag = { type: 'add-tag', tag: 'x' } as RuleAction;

describe('no-assign-first', () => {
  it.each([
    ['a bare message', [send], false, [0]],
    ['a message with assign-first', [sendFirst], false, []],
    ['a message after an assign', [assign, send], false, []],
    ['a message after an unassign', [assign, unassign, send], false, [2]],
    ['a non-message action', [tag], false, []],
    ['a message the trigger guarantees', [send], true, []],
  ])('%s', (_name, actions, guaranteed, expected) => {
    expect(messagesWithoutAssignee(actions, guaranteed)).toEqual(expected);
  });

  const leaf = (operator: string, value: unknown) => ({
    fact: 'contact',
    path: '$.assigneeId',
    operator,
    value,
  });
  it.each([
    [{ all: [leaf('exists', true)] }, true],
    [{ all: [leaf('exists', false)] }, false],
    [{ all: [leaf('changedTo', 'Ana')] }, true],
    [{ all: [leaf('notEqual', null)] }, true],
    [{ all: [leaf('in', ['a', 'b'])] }, true],
    [{ any: [leaf('exists', true)] }, false],
    [{ not: leaf('exists', false) }, false],
    [{ all: [{ fact: 'contact', path: '$.stageId', operator: 'exists', value: true }] }, false],
    [undefined, false],
  ])('conditions %j require an assignee: %s', (conditions, expected) => {
    expect(conditionsRequireAssignee(conditions)).toBe(expected);
  });

  it.each([
    [{ assigneeIds: ['Ana'] }, true],
    [{ assigneeIds: [] }, false],
    [{ tagIds: ['vip'] }, false],
  ])('segment %j requires an assignee: %s', (filters, expected) => {
    expect(segmentRequiresAssignee(filters)).toBe(expected);
  });
});
