import { holdsNul } from './nul-character';

describe('holdsNul', () => {
  it.each([
    ['a plain string', 'sweep-1', false],
    ['a string with U+0000', 'a\u0000b', true],
    ['the escape as text', '\\u0000', false],
    ['U+FFFD, what the intake stores instead', 'a\ufffdb', false],
    ['numbers, booleans, null and undefined', [1, true, null, undefined], false],
    ['U+0000 deep in an object', { a: [{ b: { c: 'x\u0000' } }] }, true],
    ['U+0000 in a key', { 'a\u0000': 1 }, true],
    ['a Buffer holding a zero byte', Buffer.from([0, 1, 2]), false],
    ['an empty object', {}, false],
  ])('%s: %s', (_, value, expected) => {
    expect(holdsNul(value)).toBe(expected);
  });

  it('walks a body 100,000 levels deep without recursion', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(holdsNul(deep)).toBe(true);
  });
});
