// Table test of the impossible-condition reasoning: sound (no alarm on a satisfiable condition).
import { impossibleCondition } from './impossible-conditions';

const leaf = (fact: string, operator: string, value: unknown, path?: string) => ({
  fact,
  operator,
  value,
  ...(path ? { path } : {}),
});
const status = (operator: string, value: unknown) => leaf('contact', operator, value, '$.status');
const age = (operator: string, value: number) => leaf('contact', operator, value, '$.age');

describe('impossibleCondition', () => {
  it.each<[string, unknown, string | undefined]>([
    ['equal two values', { all: [status('equal', 'active'), status('equal', 'archived')] }, 'if.all.1'],
    ['equal and in without it', { all: [status('equal', 'active'), status('in', ['archived'])] }, 'if.all.1'],
    ['in lists that do not meet', { all: [status('in', ['a', 'b']), status('in', ['c'])] }, 'if.all.1'],
    ['equal and notEqual the same', { all: [status('equal', 'a'), status('notEqual', 'a')] }, 'if.all.1'],
    [
      'in and notIn covering it',
      { all: [status('in', ['a', 'b']), status('notIn', ['b', 'a', 'c'])] },
      'if.all.1',
    ],
    [
      'X and not:X',
      { all: [leaf('contact', 'hasTag', 'vip'), leaf('contact', 'not:hasTag', 'vip')] },
      'if.all.1',
    ],
    [
      'X and not { X }',
      { all: [leaf('contact', 'hasTag', 'vip'), { not: leaf('contact', 'hasTag', 'vip') }] },
      'if.all.1.not',
    ],
    ['nested all', { all: [status('equal', 'a'), { all: [status('equal', 'b')] }] }, 'if.all.1.all.0'],
    ['ranges apart', { all: [age('greaterThan', 10), age('lessThan', 5)] }, 'if.all.1'],
    ['touching strict bounds', { all: [age('greaterThanInclusive', 5), age('lessThan', 5)] }, 'if.all.1'],
    ['equal outside a range', { all: [age('lessThanInclusive', 3), age('equal', 4)] }, 'if.all.1'],
    ['in []', { all: [status('in', [])] }, 'if.all.0.value'],
    ['hasAnyTag []', { all: [leaf('contact', 'hasAnyTag', [])] }, 'if.all.0.value'],
    ['exists true and false', { all: [status('exists', true), status('exists', false)] }, 'if.all.1'],
    [
      'every branch of any',
      { any: [status('in', []), { all: [age('greaterThan', 1), age('lessThan', 0)] }] },
      'if',
    ],
    // Satisfiable: no alarm.
    [
      'touching inclusive bounds',
      { all: [age('greaterThanInclusive', 5), age('lessThanInclusive', 5)] },
      undefined,
    ],
    ['case differs', { all: [status('equal', 'Active'), status('notEqual', 'active')] }, undefined],
    ['different paths', { all: [status('equal', 'a'), leaf('contact', 'equal', 'b', '$.name')] }, undefined],
    ['one branch of any holds', { any: [status('in', []), status('equal', 'a')] }, undefined],
    [
      'not:greaterThan is not lessThanInclusive',
      { all: [age('not:greaterThan', 10), age('greaterThan', 20)] },
      undefined,
    ],
    [
      'decorators other than not',
      { all: [status('ignoreCase:equal', 'a'), status('equal', 'A')] },
      undefined,
    ],
    ['text operators', { all: [status('startsWith', 'a'), status('not:startsWith', 'b')] }, undefined],
    ['notIn []', { all: [status('notIn', [])] }, undefined],
    ['any []', { any: [] }, undefined],
    ['not of an impossible all', { not: { all: [status('equal', 'a'), status('equal', 'b')] } }, undefined],
    ['no conditions', undefined, undefined],
  ])('%s', (_, conditions, at) => {
    const found = impossibleCondition(conditions);
    expect(found?.path.join('.')).toBe(at);
    if (at) expect(found!.reason).toMatch(/never|no number|impossible/);
  });
});
