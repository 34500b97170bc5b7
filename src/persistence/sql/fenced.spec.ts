import { fenced } from './fenced';
import type { Transactional } from './queryable';

const db: Transactional = {
  query: async () => [{ ok: 1 }],
  transaction: async (fn) => fn(db),
};
const refuse = () => {
  throw new Error('lease lost');
};

describe('fenced', () => {
  it.each([
    ['query', (c: Transactional) => c.query('SELECT 1')],
    ['transaction', (c: Transactional) => c.transaction(async () => 1)],
  ])('a refused %s is a rejected promise, not a synchronous throw', async (_, call) => {
    let result: Promise<unknown> | undefined;
    expect(() => (result = call(fenced(db, refuse)))).not.toThrow();
    await expect(result).rejects.toThrow('lease lost');
  });

  it('runs the statement when the check passes', async () => {
    await expect(fenced(db, () => undefined).query('SELECT 1')).resolves.toEqual([{ ok: 1 }]);
  });
});
