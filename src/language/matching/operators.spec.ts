import { lookupOperator, MAX_PROGRAM_SIZE, parseOperatorName, regexProblem } from './operators';

describe('regexProblem', () => {
  it.each([['(?i)\\border\\b'], ['^\\d{3}-\\d{4}$'], ['(?i)(pedido|order|commande)\\s*#?\\d+'], ['\\p{L}+']])(
    'accepts the RE2 pattern %s',
    (pattern) => {
      expect(regexProblem(pattern)).toBeUndefined();
    },
  );

  it.each([
    ['(order', 'invalid-regex'],
    ['[z-a]', 'invalid-regex'],
    ['(a+)\\1', 'unsafe-regex'],
    ['order(?!ed)', 'unsafe-regex'],
    ['(?<=#)\\d+', 'unsafe-regex'],
    ['(x{2,1000}){1,1000}', 'unsafe-regex'],
    ['a'.repeat(501), 'unsafe-regex'],
  ])('refuses %s as %s', (pattern, code) => {
    expect(regexProblem(pattern)?.code).toBe(code);
  });

  it('refuses patterns whose RE2 program is too large', () => {
    const problem = regexProblem('[a-z]{1,1000}[0-9]{1,1000}[A-Z]{1,1000}');
    expect(problem?.code).toBe('unsafe-regex');
    expect(problem?.message).toContain(`> ${MAX_PROGRAM_SIZE}`);
  });
});

describe('parseOperatorName', () => {
  it('splits json-rules-engine decorators from the operator', () => {
    expect(parseOperatorName('everyFact:not:matches')).toEqual({
      base: 'matches',
      decorators: ['everyFact', 'not'],
    });
    expect(parseOperatorName('hasTag')).toEqual({ base: 'hasTag', decorators: [] });
    expect(parseOperatorName('most:equal')).toEqual({ unknownDecorator: 'most' });
    expect(parseOperatorName('not:equals')).toEqual({ unknownBase: 'equals' });
  });
});

describe('text operators', () => {
  const evaluate = (operator: string, fact: unknown, value: unknown) =>
    lookupOperator(operator)!.evaluate(fact, value);

  it.each([
    ['contains', 'I want a refund', 'refund', true],
    ['contains', 'I want a Refund', 'refund', false],
    ['ignoreCase:contains', 'I want a REFUND now', 'refund', true],
    ['contains', ['pt', 'en'], 'pt', true],
    ['contains', ['pt', 'en'], 'p', false],
    ['ignoreCase:contains', ['PT', 'en'], 'pt', true],
    ['contains', null, 'x', false],
    ['contains', 42, '4', false],
    ['doesNotContain', 'all good', 'refund', true],
    ['doesNotContain', 'a refund', 'refund', false],
    ['doesNotContain', ['a'], 'a', false],
    ['doesNotContain', undefined, 'a', false],
    ['startsWith', '+351 912', '+351', true],
    ['startsWith', 'x+351', '+351', false],
    ['ignoreCase:startsWith', 'Hello there', 'hello', true],
    ['endsWith', 'ana@example.com', '@example.com', true],
    ['ignoreCase:endsWith', 'ANA@EXAMPLE.COM', '@example.com', true],
    ['endsWith', null, 'x', false],
    ['not:ignoreCase:contains', 'Refund please', 'refund', false],
    ['ignoreCase:equal', 'VIP', 'vip', true],
    ['ignoreCase:in', 'Gold', ['gold', 'silver'], true],
    ['ignoreCase:notIn', 'Gold', ['gold', 'silver'], false],
  ])('%s(%j, %j) is %s', (operator, fact, value, expected) => {
    expect(evaluate(operator, fact, value)).toBe(expected);
  });
});
