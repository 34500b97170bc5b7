// `goal:` in its short form and as { if, within }: the conditions, the window a run's plan keeps,
// and the problems of a bad window at their place.
import { loadRulesFromFiles } from '../format/load-rules';
import { DEFAULT_GOAL_WINDOW_MS } from './goal-window';
import { timingPlanOf } from './run-gates';

const rule = (goal: string) =>
  loadRulesFromFiles([
    {
      path: 'r/a.yaml',
      text: `rule: welcome\non: contact.created\ngoal: ${goal}\ndo:\n  - add-tag: welcomed\n`,
    },
  ]);
const customer = { all: [{ fact: 'contact', path: '$.tags', operator: 'hasTag', value: 'customer' }] };

describe('a rule goal and its window', () => {
  it.each<[string, string, number | undefined, number]>([
    [
      'short form: the default window',
      '{ fact: contact.tags, operator: hasTag, value: customer }',
      undefined,
      DEFAULT_GOAL_WINDOW_MS,
    ],
    [
      'long form with a window',
      '{ if: { fact: contact.tags, operator: hasTag, value: customer }, within: 3d }',
      3 * 86_400_000,
      3 * 86_400_000,
    ],
    [
      'long form without a window',
      '{ if: { fact: contact.tags, operator: hasTag, value: customer } }',
      undefined,
      DEFAULT_GOAL_WINDOW_MS,
    ],
  ])('%s', (_, goal, ruleWindow, planWindow) => {
    const loaded = rule(goal);
    expect(loaded.problems.filter((p) => p.severity === 'error')).toEqual([]);
    const def = loaded.ruleSet!.rule('welcome')!;
    expect(def.goal).toEqual(customer);
    expect(def.goalWithinMs).toBe(ruleWindow);
    expect(timingPlanOf(def)).toEqual({ goal: customer, goalWithinMs: planWindow });
  });

  it('keeps the version of a rule with the short form (its split arms do not move)', () => {
    const short = rule('{ fact: contact.tags, operator: hasTag, value: customer }').ruleSet!.rule('welcome')!;
    expect(short).not.toHaveProperty('goalWithinMs');
  });

  it.each([
    [
      'a window that is no duration',
      '{ if: { fact: contact.tags, operator: hasTag, value: customer }, within: soon }',
      'must be a duration',
    ],
    [
      'an unknown key',
      '{ if: { fact: contact.tags, operator: hasTag, value: customer }, for: 3d }',
      'unknown key "for"',
    ],
    [
      'an unknown fact in the long form',
      '{ if: { fact: contact.nope, operator: equal, value: 1 } }',
      'unknown fact path',
    ],
  ])('refuses %s at line 3', (_, goal, message) => {
    const errors = rule(goal).problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual([expect.objectContaining({ line: 3, message: expect.stringContaining(message) })]);
  });
});
