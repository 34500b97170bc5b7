import { pruneInBatches, retentionCutoff } from './retention';

describe('retention', () => {
  it.each([
    [30, '2026-01-31T12:00:00.000Z', '2026-01-01T12:00:00.000Z'],
    [1, '2026-03-01T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
  ])('keeps %i day(s) before %s', (days, now, cutoff) => {
    expect(retentionCutoff(new Date(now), days).toISOString()).toBe(cutoff);
  });

  it.each([
    ['nothing to delete', [0], 0, 1],
    ['less than one batch', [7], 7, 1],
    ['exactly one batch, then nothing', [10, 0], 10, 2],
    ['several batches', [10, 10, 3], 23, 3],
  ])('deletes in batches until one comes back short: %s', async (_name, batches, total, calls) => {
    const seen: number[] = [];
    const result = await pruneInBatches(async (limit) => {
      seen.push(limit);
      return batches[seen.length - 1] ?? 0;
    }, 10);
    expect({ result, calls: seen.length, limits: new Set(seen) }).toEqual({
      result: total,
      calls,
      limits: new Set([10]),
    });
  });

  it('stops after maxBatches even if rows keep coming', async () => {
    expect(await pruneInBatches(async (limit) => limit, 5, 3)).toBe(15);
  });
});
