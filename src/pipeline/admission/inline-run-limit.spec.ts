import { inlineRunLimit, MAX_INLINE_RUNS } from './inline-run-limit';

describe('inlineRunLimit', () => {
  it.each([
    { poolMax: 30, limit: 7 }, // the default pool
    { poolMax: 16, limit: 4 }, // the compose file and the benchmarks
    { poolMax: 100, limit: MAX_INLINE_RUNS },
    { poolMax: 3, limit: 1 },
    { poolMax: 2, limit: 1 },
  ])('pool of $poolMax → $limit at once', ({ poolMax, limit }) => {
    expect(inlineRunLimit(poolMax)).toBe(limit);
  });
});
