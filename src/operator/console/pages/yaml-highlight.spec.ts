import { highlightLine, highlightYaml } from './yaml-highlight';

const kinds = (line: string) => highlightLine(line).map((t) => `${t.kind}:${t.text}`);

describe('highlightLine: a rule line as coloured tokens', () => {
  it.each([
    ['# a comment', ['comment:# a comment']],
    ['rule: tag-new-contacts', ['key:rule', 'punct::', 'plain: tag-new-contacts']],
    [
      '    - { fact: contact.status, operator: equal, value: 3 }',
      [
        'plain:    ',
        'punct:-',
        'plain: ',
        'punct:{',
        'plain: ',
        'key:fact',
        'punct::',
        'plain: contact.status',
        'punct:,',
        'plain: ',
        'key:operator',
        'punct::',
        'plain: equal',
        'punct:,',
        'plain: ',
        'key:value',
        'punct::',
        'plain: ',
        'literal:3',
        'plain: ',
        'punct:}',
      ],
    ],
    [
      '  - send-message: "Hi {{contact.name}} # not a comment" # a comment',
      [
        'plain:  ',
        'punct:-',
        'plain: ',
        'key:send-message',
        'punct::',
        'plain: ',
        'string:"Hi {{contact.name}} # not a comment"',
        'plain: ',
        'comment:# a comment',
      ],
    ],
    [
      '  - add-tag: {{event.tag}}',
      ['plain:  ', 'punct:-', 'plain: ', 'key:add-tag', 'punct::', 'plain: ', 'template:{{event.tag}}'],
    ],
    ['---', ['punct:---']],
  ])('%s', (line, expected) => {
    expect(kinds(line)).toEqual(expected);
  });

  it('loses no character: the tokens put together are the line', () => {
    const line = `  if: { all: [ { fact: contact.tags, operator: hasTag, value: 'vip' } ] } # x`;
    expect(
      highlightLine(line)
        .map((t) => t.text)
        .join(''),
    ).toBe(line);
  });

  it('numbers the lines from the line the rule starts at', () => {
    expect(highlightYaml('rule: a\non: contact.created', 14).map((l) => l.number)).toEqual([14, 15]);
  });
});
