import { splitReadouts } from './split-readouts';
import { TWO_SPLITS as BRANCHES, TWO_SPLIT_COUNTS as counts } from './split-readouts.spec-support';

// Every split of a rule read out on its own: arms told apart by the branch index even when two
// splits name their arms alike, each against its own control.
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
