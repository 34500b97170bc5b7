// sameMoment: two actions of one rule undo each other only if one run can do both at once, i.e.
// some path of the rule (rule-paths.ts) performs both with no wait passed between them.
import { sameMoment } from './rule-paths';
import type { RuleDefinition } from './rule-types';

const rule = (extra: Partial<RuleDefinition>) =>
  ({
    trigger: { kind: 'event', events: ['contact.created'] },
    actions: [{}, {}, {}],
    ...extra,
  }) as RuleDefinition;
const arms = (...ranges: [number, number][]) =>
  ranges.map(([from, to], i) => ({ label: `arm${i}`, from, to }));
const branch = (at: number, end: number, ...ranges: [number, number][]) => ({
  kind: 'if' as const,
  at,
  end,
  afterWaits: 0,
  source: ['do', at],
  arms: arms(...ranges),
});

describe('sameMoment', () => {
  it.each<[string, Partial<RuleDefinition>, number, number, boolean]>([
    ['a straight list', {}, 0, 1, true],
    ['a wait between them', { waits: [{ beforeAction: 1, ms: 1000 }] }, 0, 1, false],
    ['a wait before both', { waits: [{ beforeAction: 0, ms: 1000 }] }, 0, 1, true],
    ['a wait after both', { waits: [{ beforeAction: 2, ms: 1000 }] }, 0, 1, true],
    ['different arms of one branch', { branches: [branch(1, 3, [1, 2], [2, 3])] }, 1, 2, false],
    ['the same arm', { branches: [branch(1, 3, [1, 3], [3, 3])] }, 1, 2, true],
    ['one before the branch, one inside it', { branches: [branch(1, 3, [1, 2], [2, 3])] }, 0, 2, true],
    [
      'a wait in the arm not taken does not separate them',
      { branches: [branch(1, 3, [1, 2], [2, 3])], waits: [{ beforeAction: 1, ms: 1000 }] },
      0,
      2,
      true,
    ],
    [
      'a wait in the arm taken does',
      { branches: [branch(1, 3, [1, 2], [2, 3])], waits: [{ beforeAction: 2, ms: 1000 }] },
      0,
      2,
      false,
    ],
    ['given in either order', { waits: [{ beforeAction: 1, ms: 1000 }] }, 1, 0, false],
  ])('%s', (_name, def, first, second, expected) => {
    expect(sameMoment(rule(def), first, second)).toBe(expected);
  });
});
