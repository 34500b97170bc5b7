import { parsePoolSpec, poolRotation, poolRotationOf } from './pool-spec';

describe('parsePoolSpec', () => {
  it('reads the defaults', () => {
    expect(parsePoolSpec({ pool: ['Ana', { role: 'billing' }] }).spec).toEqual({
      pool: ['Ana', 'role: billing'],
      strategy: 'round-robin',
      skipInactive: true,
    });
  });

  it.each([
    [{ pool: [] }, 'pool', 'at least one'],
    [{ pool: ['Ana'], weights: { Ana: 2 } }, 'weights', 'need strategy: weighted'],
    [{ pool: ['Ana'], strategy: 'weighted', weights: { Ben: 2 } }, 'weights', 'not in the pool'],
    [{ pool: ['Ana'], strategy: 'weighted', weights: { Ana: -1 } }, 'weights', 'whole number'],
    [{ pool: ['Ana'], 'max-open': 0 }, 'max-open', '≥ 1'],
    [{ pool: ['Ana'], strategy: 'fastest' }, 'strategy', 'one of'],
    [{ pool: ['Ana'], 'skip-inactive': 'yes' }, 'skip-inactive', 'true or false'],
    [{ pool: [{ role: 'x', name: 'y' }] }, 'pool', 'neither'],
    [{ pool: ['Ana'], max: 3 }, 'max', 'unknown key'],
  ])('refuses %j at %s', (value, key, words) => {
    const { spec, problems } = parsePoolSpec(value);
    expect(spec).toBeUndefined();
    expect(problems).toEqual(expect.arrayContaining([expect.objectContaining({ key })]));
    expect(problems.map((p) => p.message).join('\n')).toContain(words);
  });
});

describe('pool turn counters', () => {
  const spec = { pool: ['Ana', 'Ben'], strategy: 'round-robin' as const, skipInactive: true };
  it('names the runner counter by rule and action: two rules with one pool do not share turns', () => {
    expect(poolRotationOf('route-a', 0)).not.toBe(poolRotationOf('route-b', 0));
    expect(poolRotationOf('route-a', 0)).not.toBe(poolRotationOf('route-a', 1));
  });
  it('names a dry run counter by the whole spec', () => {
    expect(poolRotation(spec)).toBe(poolRotation({ ...spec }));
    expect(poolRotation(spec)).not.toBe(poolRotation({ ...spec, skipInactive: false }));
  });
});
