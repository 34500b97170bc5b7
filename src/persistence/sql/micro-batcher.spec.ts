import { MicroBatcher } from './micro-batcher';

/** A writer that records its batches and refuses the items listed in `poison`. */
function recorder(poison: number[] = []) {
  const batches: number[][] = [];
  const write = async (items: number[]) => {
    batches.push(items);
    if (items.some((i) => poison.includes(i))) throw new Error(`refused ${items.join(',')}`);
    return items.map((i) => i * 10);
  };
  return { batches, write };
}

describe('MicroBatcher', () => {
  it.each([
    { name: 'one turn, one batch', items: [1, 2, 3], max: 100, batches: [[1, 2, 3]] },
    { name: 'split at maxBatch', items: [1, 2, 3, 4, 5], max: 2, batches: [[1, 2], [3, 4], [5]] },
    { name: 'a single item', items: [7], max: 100, batches: [[7]] },
  ])('$name', async ({ items, max, batches }) => {
    const r = recorder();
    const batcher = new MicroBatcher(r.write, { maxBatch: max });
    expect(await Promise.all(items.map((i) => batcher.submit(i)))).toEqual(items.map((i) => i * 10));
    expect(r.batches).toEqual(batches);
  });

  it('fails only the refused item: the batch is written again one by one', async () => {
    const r = recorder([2]);
    const batcher = new MicroBatcher(r.write);
    const results = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)));
    expect(results.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(r.batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('gathers what arrives while a batch is written into the next batch', async () => {
    const r = recorder();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new MicroBatcher(async (items: number[]) => {
      if (r.batches.length === 0) await gate;
      return r.write(items);
    });
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is being written
    const later = [2, 3].map((i) => batcher.submit(i));
    release();
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30]);
    expect(r.batches).toEqual([[1], [2, 3]]);
  });
});

describe('MicroBatcher writeOne', () => {
  it('writes the items of a failed batch again through writeOne, each with its own outcome', async () => {
    const r = recorder([2]);
    const alone: number[] = [];
    const batcher = new MicroBatcher(r.write, {
      writeOne: async (i: number) => {
        alone.push(i);
        if (i === 2) throw new Error('refused 2');
        return i * 100;
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((i) => batcher.submit(i)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 100 },
      { status: 'rejected', reason: new Error('refused 2') },
      { status: 'fulfilled', value: 300 },
    ]);
    expect(r.batches).toEqual([[1, 2, 3]]);
    expect(alone).toEqual([1, 2, 3]);
  });
});
