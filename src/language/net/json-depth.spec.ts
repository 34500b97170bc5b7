import {
  clipJsonDepth,
  jsonDepthAtMost,
  MAX_JSON_DEPTH,
  TOO_DEEP_MARKER,
  withinJsonDepth,
} from './json-depth';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('withinJsonDepth', () => {
  it.each([
    ['a flat value', '1', 1, true],
    ['an empty object at the limit', '{}', 1, true],
    ['an object one past the limit', '{"a":{}}', 1, false],
    ['objects at the limit', nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH, true],
    ['objects one past the limit', nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH, false],
    ['arrays one past the limit', arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH, false],
    ['siblings (depth, not count)', `[${'[],'.repeat(500)}[]]`, 2, true],
    ['brackets inside a string', `{"a":"${'['.repeat(500)}"}`, 1, true],
    ['an escaped quote inside a string', `{"a":"\\"[[[["}`, 1, true],
    ['an escaped backslash closing a string', `{"a":"\\\\",  "b":[[1]]}`, 2, false],
    ['multi-byte characters', `{"é☃😀":["😀"]}`, 2, true],
    ['not JSON at all', 'not json', 1, true],
  ])('%s', (_what, text, limit, expected) => {
    expect(withinJsonDepth(bytes(text), limit)).toBe(expected);
  });

  it('scans a 50,000-deep body without overflowing', () => {
    expect(withinJsonDepth(bytes(arrays(50_000)))).toBe(false);
  });
});

describe('jsonDepthAtMost', () => {
  it.each([
    ['a scalar', 1, 0, true],
    ['an object at the limit', JSON.parse(nested(3)), 3, true],
    ['an object past the limit', JSON.parse(nested(4)), 3, false],
    ['arrays past the limit', JSON.parse(arrays(4)), 3, false],
  ])('%s', (_what, value, limit, expected) => {
    expect(jsonDepthAtMost(value, limit)).toBe(expected);
  });

  it('reads a 20,000-deep value without overflowing', () => {
    expect(jsonDepthAtMost(JSON.parse(arrays(20_000)))).toBe(false);
  });
});

describe('clipJsonDepth', () => {
  it('returns a value within the limit as it is', () => {
    const value = { a: [1, { b: 2 }] };
    expect(clipJsonDepth(value, 3)).toBe(value);
  });

  it('cuts what lies past the limit, so a 20,000-deep stored value can be written as JSON', () => {
    const deep = JSON.parse(`{"id":"e1","data":${nested(20_000)}}`);
    const clipped = clipJsonDepth(deep);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonDepthAtMost(clipped)).toBe(true);
    expect(JSON.stringify(clipped)).toContain(TOO_DEEP_MARKER);
    expect(clipped.id).toBe('e1');
  });
});
