import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { TimelineEntry } from '../../../persistence/ledger/run-timeline-entry';
import { factsAfterWaits, templateFactsOf } from './run-facts';

const at = '2024-05-06T10:00:00.000Z';
const question = { type: 'message.created', data: { id: 'm1', text: 'Pick 1 or 2' } };
const resumedBy = (wait: number, type: string, data: Record<string, unknown>): TimelineEntry => ({
  at,
  step: 'resumed',
  for: 'wait',
  wait,
  action: 1,
  reason: 'until_event',
  event: { type, id: `evt-${wait}`, data },
});
const run = (timeline: TimelineEntry[], payload: RunRow['event_payload'] = question): RunRow => ({
  id: 'run-1',
  rule_id: 'ask',
  contact_id: 'c',
  status: 'running',
  correlation_id: null,
  contact_snapshot: null,
  priority: 'interactive',
  event_payload: payload,
  timeline,
});

describe('what the templates of an action read', () => {
  it.each<[string, RunRow, unknown, unknown]>([
    ['no wait ended by an event: the trigger', run([]), question, question.data],
    [
      'a wait ended by the reply: the reply',
      run([{ at, step: 'waiting', for: 'wait', wait: 0 }, resumedBy(0, 'message.created', { text: '2' })]),
      { type: 'message.created', id: 'evt-0', data: { text: '2' } },
      { text: '2' },
    ],
    [
      'two waits ended by events: the latest wait',
      run([resumedBy(0, 'message.created', { text: '1' }), resumedBy(1, 'message.created', { text: '2' })]),
      { type: 'message.created', id: 'evt-1', data: { text: '2' } },
      { text: '2' },
    ],
    [
      'a wait ended by a contact event: no message',
      run([resumedBy(0, 'contact.updated', { id: 'c' })]),
      { type: 'contact.updated', id: 'evt-0', data: { id: 'c' } },
      undefined,
    ],
    [
      'a wait ended by its timer: the trigger',
      run([{ at, step: 'resumed', for: 'wait', wait: 0 }]),
      question,
      question.data,
    ],
    ['a sweep run: no event', run([], null), undefined, undefined],
  ])('%s', (_, r, event, message) => {
    const facts = templateFactsOf(r, { id: 'c' }, {});
    expect(facts.event).toEqual(event);
    expect(facts.message).toEqual(message);
    expect(facts.contact).toEqual({ id: 'c' });
  });

  it('branches read the same event as the templates', () => {
    const r = run([resumedBy(0, 'message.created', { text: '2' })]);
    const facts = factsAfterWaits(r, { id: 'c' }, new Date(at));
    expect(facts.message).toEqual({ text: '2' });
    expect(facts.event).toEqual(templateFactsOf(r, {}, {}).event);
  });
});

describe('failure.* of an on-failure arm, as its branch entry keeps it', () => {
  // Action 0 failed; its arm holds action 1; action 2 comes after.
  const timing = {
    ruleVersion: 'v1',
    branches: [
      {
        kind: 'failure',
        at: 1,
        end: 2,
        afterWaits: 0,
        arms: [
          { label: 'on-failure', from: 1, to: 2 },
          { label: 'succeeded', from: 2, to: 2 },
        ],
      },
    ],
  } as unknown as RunRow['timing'];
  const taken: TimelineEntry = {
    at,
    step: 'branch',
    action: 1,
    branch: 0,
    arm: 0,
    label: 'on-failure',
    failure: { reason: 'outside_messaging_window', class: 'failed' },
  };
  const failed = { ...run([taken]), timing };

  const refused = { reason: 'outside_messaging_window', class: 'failed' };
  // A branch met before action 2 may be the arm's last step (an if closing it): it still reads them.
  it.each<[string, RunRow, number, unknown, unknown]>([
    ['an action in the arm', failed, 1, refused, refused],
    ['an action after the arm', failed, 2, undefined, refused],
    [
      'the arm not taken',
      { ...run([{ ...taken, arm: 1, failure: undefined }]), timing },
      1,
      undefined,
      undefined,
    ],
  ])('%s', (_, r, action, inTemplate, inBranch) => {
    expect(templateFactsOf(r, {}, {}, action).failure).toEqual(inTemplate);
    expect(factsAfterWaits(r, {}, new Date(at), action).failure).toEqual(inBranch);
  });
});
