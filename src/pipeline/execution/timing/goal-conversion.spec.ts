import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { EvaluationFacts } from '../../../language/rules/format/rule-types';
import { conversionBy, factsForGoals } from './goal-conversion';

const now = new Date('2024-05-06T10:00:00Z');
const vip = { all: [{ fact: 'contact', path: '$.tags', operator: 'hasTag', value: 'vip' }] };
const run = (status: RunRow['status'], goal: Record<string, unknown> | null = vip): RunRow => ({
  id: 'run-1',
  rule_id: 'welcome',
  contact_id: 'c',
  status,
  correlation_id: null,
  contact_snapshot: null,
  priority: 'interactive',
  event_payload: { type: 'contact.created', data: { id: 'c' } },
  timing: goal ? { goal, goalWithinMs: 86_400_000 } : { waits: [] },
  timeline: [],
});
const tagged = (tags: string[]) => ({ id: 'c', tags: tags.map((name) => ({ id: name, name })) });
const contactEvent = (tags: string[]): EvaluationFacts => ({
  event: { id: 'evt-9', type: 'contact.updated', data: tagged(tags) },
  contact: tagged(tags),
  now,
});
const messageEvent: EvaluationFacts = {
  event: { id: 'evt-10', type: 'message.created', data: { text: 'hi' } },
  message: { text: 'hi' },
  now,
};

describe('a goal met after the run', () => {
  it.each<[string, RunRow, EvaluationFacts, boolean]>([
    ['a succeeded run, the goal met', run('succeeded'), contactEvent(['vip']), true],
    ['a succeeded run, the goal not met', run('succeeded'), contactEvent(['other']), false],
    ['a failed run does not convert', run('failed'), contactEvent(['vip']), false],
    ['a run without a goal', run('succeeded', null), contactEvent(['vip']), false],
    ['a message event without the contact', run('succeeded'), messageEvent, false],
  ])('%s', (_, r, facts, converts) => {
    const entry = conversionBy(r, facts);
    expect(entry !== undefined).toBe(converts);
    if (entry)
      expect(entry).toEqual({
        at: now.toISOString(),
        step: 'goal_reached',
        reason: 'goal_reached',
        detail: "contact.updated evt-9 met the rule's goal after the run",
      });
  });
});

describe('the contact a goal reads on an event that carries none', () => {
  it('reads it (once) for a message event when a run has a goal: the goal is met', async () => {
    const contactOf = jest.fn(async () => tagged(['vip']) as Record<string, unknown>);
    const facts = await factsForGoals([run('waiting'), run('succeeded')], messageEvent, contactOf);
    expect(contactOf).toHaveBeenCalledTimes(1);
    expect(facts.contact).toEqual(tagged(['vip']));
    expect(facts.message).toEqual({ text: 'hi' });
    expect(conversionBy(run('succeeded'), facts)).toBeDefined();
  });

  it.each<[string, RunRow[], EvaluationFacts]>([
    ['no run has a goal', [run('waiting', null)], messageEvent],
    ['no runs at all', [], messageEvent],
    ['the event carries its contact', [run('succeeded')], contactEvent(['vip'])],
  ])('reads nothing when %s', async (_, runs, event) => {
    const contactOf = jest.fn(async () => tagged(['vip']) as Record<string, unknown>);
    expect(await factsForGoals(runs, event, contactOf)).toBe(event);
    expect(contactOf).not.toHaveBeenCalled();
  });
});
