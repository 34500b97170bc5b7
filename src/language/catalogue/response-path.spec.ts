// The `save:` path subset: what parses, what each path reads from an answer.
import { mapResponse, parseResponsePath, readPath } from './response-path';

const ANSWER = {
  status: 'shipped',
  order: { id: 42, lines: [{ sku: 'A-1' }, { sku: 'B-2' }], 'due-date': '2026-12-01' },
  'odd key': true,
  empty: null,
};

describe('response paths', () => {
  it.each([
    ['$', ANSWER],
    ['$.status', 'shipped'],
    ['$.order.id', 42],
    ['$.order.lines[1].sku', 'B-2'],
    ["$['odd key']", true],
    ['$["order"]["due-date"]', '2026-12-01'],
    ['$.order.due-date', '2026-12-01'],
    ['$.empty', null],
    ['$.missing', undefined],
    ['$.order.lines[5].sku', undefined],
    ['$.status[0]', undefined],
    ['$.order.lines.length', undefined],
    ['$.constructor', undefined],
  ])('%s reads %p', (path, expected) => {
    const steps = parseResponsePath(path);
    expect('error' in steps).toBe(false);
    expect(readPath(ANSWER, steps as (string | number)[])).toEqual(expected);
  });

  it.each(['status', '$..status', '$.order[*]', '$[?(@.x)]', '$.a.', "$['a]", '$.1abc'])(
    'refuses %p',
    (path) => expect(parseResponsePath(path)).toEqual({ error: expect.any(String) }),
  );

  it('saves null for a value the answer lacks', () => {
    expect(mapResponse({ s: '$.status', n: '$.nope' }, ANSWER)).toEqual({ s: 'shipped', n: null });
  });
});
