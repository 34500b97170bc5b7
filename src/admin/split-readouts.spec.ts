import { splitReadouts } from './split-readouts';

// Every split of a rule read out on its own: arms told apart by the branch index even when two
// splits name their arms alike, each against its own control.
const BRANCHES = [
  {
    kind: 'split',
    source: ['do', 0],
    arms: [{ label: 'arm:offer' }, { label: 'arm:holdout', control: true as const }],
  },
  { kind: 'if', source: ['do', 1], arms: [{ label: 'then' }, { label: 'else' }] },
  { kind: 'split', source: ['do', 2], arms: [{ label: 'arm:a' }, { label: 'arm:control' }] },
];
const counts = [
  { branch: 0, label: 'arm:offer', runs: 1000, goalReached: 200 },
  { branch: 0, label: 'arm:holdout', runs: 1000, goalReached: 100 },
  { branch: 1, label: 'then', runs: 500, goalReached: 90 },
  { branch: 2, label: 'arm:a', runs: 10, goalReached: 2 },
  { branch: 2, label: 'arm:control', runs: 10, goalReached: 1 },
];

describe('splitReadouts', () => {
  it('reads out each split against its own control; not the if', () => {
    const [first, second, ...rest] = splitReadouts(BRANCHES, counts);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ branch: 0, at: 'do.0', control: 'arm:holdout' });
    expect(first.tooFew).toBeUndefined();
    const offer = first.arms.find((a) => a.label === 'arm:offer')!;
    // 20% vs 10% over 2,000 contacts: the truth (+10 points, lift +100%) inside the interval.
    expect(offer.versusControl!.interval.low).toBeLessThan(0.1);
    expect(offer.versusControl!.interval.high).toBeGreaterThan(0.1);
    expect(offer.versusControl!.relativeLift).toBeCloseTo(1, 5);
    expect(second).toMatchObject({ branch: 2, at: 'do.2', control: 'arm:control' });
    expect(second.tooFew).toMatch(/^too few to say: arm:a: 10 run\(s\)/);
  });
});
