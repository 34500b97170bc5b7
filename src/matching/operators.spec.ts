import { MAX_PROGRAM_SIZE, parseOperatorName, regexProblem } from './operators';

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
