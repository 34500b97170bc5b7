import { experimentReadout, newcombe, normalCdf, twoProportionZ, wilson } from './experiment-readout';

const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

/** A seeded generator (mulberry32): the same "random" conversions on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const converted = (n: number, p: number, next: () => number) =>
  Array.from({ length: n }, next).filter((u) => u < p).length;

describe('experiment readout: the methods against published values', () => {
  it.each([
    // Newcombe (1998), table I: Wilson intervals.
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('Wilson interval of %i/%i is [%f, %f]', (x, n, low, high) => {
    const w = wilson(x, n);
    expect([round(w.low), round(w.high)]).toEqual([low, high]);
  });

  it.each([
    // Newcombe (1998), table II, method 10.
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
  ])('Newcombe interval of %i/%i - %i/%i is [%f, %f]', (x1, n1, x0, n0, low, high) => {
    const i = newcombe(x1, n1, x0, n0);
    expect([round(i.low), round(i.high)]).toEqual([low, high]);
  });

  it('z-test and normal CDF', () => {
    expect(round(normalCdf(1.959964), 4)).toBe(0.975);
    expect(round(normalCdf(-1), 4)).toBe(0.1587);
    // 56/70 vs 48/80: pooled p = 104/150.
    const { z, pValue } = twoProportionZ(56, 70, 48, 80);
    expect(round(z, 3)).toBe(2.65); // 0.2 / sqrt(104/150 * 46/150 * (1/70 + 1/80))
    expect(pValue).toBeLessThan(0.01);
  });
});

describe('experiment readout on seeded data with a known answer', () => {
  it('20% against a 10% control over 2,000 contacts: the lift and its interval contain the truth', () => {
    const next = seeded(33);
    const arms = [
      { label: 'arm:control', runs: 1000, converted: converted(1000, 0.1, next) },
      { label: 'arm:offer', runs: 1000, converted: converted(1000, 0.2, next) },
    ];
    const r = experimentReadout(arms, 'arm:control');
    expect(r.tooFew).toBeUndefined();
    expect(r.control).toBe('arm:control');
    const offer = r.arms[1].versusControl!;
    expect(offer.interval.low).toBeLessThanOrEqual(0.1);
    expect(offer.interval.high).toBeGreaterThanOrEqual(0.1);
    expect(offer.interval.low).toBeGreaterThan(0); // significant: the interval excludes no effect
    expect(offer.pValue).toBeLessThan(0.001);
    expect(offer.relativeLift!).toBeGreaterThan(0.5); // truth: +100%
    expect(r.arms[0].interval.low).toBeLessThanOrEqual(0.1);
    expect(r.arms[0].interval.high).toBeGreaterThanOrEqual(0.1);
    expect(r.arms[1].interval.low).toBeLessThanOrEqual(0.2);
    expect(r.arms[1].interval.high).toBeGreaterThanOrEqual(0.2);
  });

  it('the Newcombe interval covers the true difference about 95% of the time (200 seeded trials)', () => {
    const next = seeded(7);
    let covered = 0;
    for (let i = 0; i < 200; i++) {
      const x0 = converted(1000, 0.1, next);
      const x1 = converted(1000, 0.2, next);
      const ci = newcombe(x1, 1000, x0, 1000);
      if (ci.low <= 0.1 && 0.1 <= ci.high) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(180); // 95% of 200 = 190, sd about 3
  });

  it('20 contacts: too few to say, and no lift given', () => {
    const r = experimentReadout(
      [
        { label: 'arm:control', runs: 10, converted: 1 },
        { label: 'arm:offer', runs: 10, converted: 2 },
      ],
      'arm:control',
    );
    expect(r.tooFew).toBe(
      'too few to say: arm:control: 10 run(s), fewer than 30; arm:offer: 10 run(s), fewer than 30',
    );
    expect(r.arms.every((a) => a.versusControl === undefined)).toBe(true);
  });

  it('enough runs but too few conversions is too few too', () => {
    const r = experimentReadout([
      { label: 'arm:a', runs: 100, converted: 3 },
      { label: 'arm:b', runs: 100, converted: 20 },
    ]);
    expect(r.control).toBe('arm:a');
    expect(r.tooFew).toBe('too few to say: arm:a: 3 conversion(s), fewer than 5');
  });
});
