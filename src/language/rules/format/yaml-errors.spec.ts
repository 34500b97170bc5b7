// Structure slips in hand-written rule files: one human sentence at the line and column to fix,
// instead of the yaml library's own wording, often a line off.
import { explainYamlErrors } from './yaml-errors';
import { parseYamlFile } from './yaml-source';

const at = (text: string) =>
  parseYamlFile('rules/r.yaml', text).problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.message}`);

describe('YAML structure errors', () => {
  it.each([
    [
      'a rule key indented under the one above',
      'rule: a\ndescription: hello\n  on: contact.created\ndo:\n  - add-tag: x\n',
      "rules/r.yaml:3:3 `on:` is indented under `description:`; a rule's keys start in the same column (column 1)",
    ],
    [
      'a nested key indented under its sibling',
      'rule: a\non:\n  schedule: "0 6 * * *"\n    timezone: UTC\ndo:\n  - add-tag: x\n',
      '`timezone:` is indented under `schedule:`; keys of one mapping start in the same column (column 3)',
    ],
    [
      "a key between a list item's column and the list's",
      'rule: a\non: contact.created\ndo:\n  - send-message: hi\n   assign-first: round-robin\n',
      'rules/r.yaml:5:4 `assign-first:` does not line up with `send-message:` of the list item above (column 5): indent it to column 5 to continue that item, or write `- assign-first:` to start a new one',
    ],
    [
      'a list item out of line with the one above',
      'rule: a\non: contact.created\nif:\n  all:\n  - { fact: x, operator: equal, value: 1 }\n - { fact: y, operator: equal, value: 2 }\ndo:\n  - add-tag: x\n',
      'rules/r.yaml:6:2 this list item starts at column 2, the one above at column 3; items of one list start in the same column',
    ],
    [
      'a tab in the indentation',
      'rule: a\non: contact.created\ndo:\n\t- add-tag: x\n',
      'rules/r.yaml:4:1 a tab in the indentation: YAML indents with spaces only (replace the tab with spaces)',
    ],
    [
      'no space after a colon',
      'rule: a\non:contact.created\ndo:\n  - add-tag: x\n',
      'rules/r.yaml:2:4 missing space after `on:`; write `on: contact.created`',
    ],
    [
      'an unclosed double quote',
      'rule: a\ndescription: "hello\non: contact.created\ndo:\n  - add-tag: x\n',
      'rules/r.yaml:2:14 the quote " opened here is never closed; close it on this line',
    ],
    [
      'an unclosed single quote in a list',
      "rule: a\non: contact.created\ndo:\n  - send-message: 'it''s here\n  - add-tag: x\n",
      "rules/r.yaml:4:19 the quote ' opened here is never closed; close it on this line",
    ],
    [
      'an unclosed brace',
      'rule: a\non: contact.created\nif: { fact: contact.name, operator: equal, value: x\ndo:\n  - add-tag: x\n',
      'rules/r.yaml:3:5 the `{` opened here is never closed with `}`',
    ],
    [
      'an unclosed bracket',
      'rule: a\non: [contact.created\ndo:\n  - add-tag: x\n',
      'rules/r.yaml:2:5 the `[` opened here is never closed with `]`',
    ],
    [
      'a nested key one column left of its siblings names the key and its column, not column 1',
      'rule: a\non: contact.updated\ndo:\n  - send-template:\n      name: welcome\n     channel: Main WhatsApp\n',
      'rules/r.yaml:6:6 `channel:` starts at column 6, `name:` above it at column 7; keys of one mapping start in the same column',
    ],
    [
      'a key given twice',
      'rule: a\non: contact.created\non: contact.updated\ndo:\n  - add-tag: x\n',
      'rules/r.yaml:3:1 `on:` appears twice in one mapping',
    ],
  ])('%s', (_, text, expected) => {
    const problems = at(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it('keeps the yaml message for a slip it has no sentence for', () => {
    const raw = {
      code: 'UNEXPECTED_TOKEN',
      message: 'Unexpected thing at line 1, column 1:\n\nx\n^',
      line: 1,
      col: 1,
    };
    expect(explainYamlErrors('x', [raw])).toEqual([{ line: 1, col: 1, message: 'YAML: Unexpected thing' }]);
  });

  it('reports nothing for a well-formed rule with colons in values', () => {
    expect(
      at(
        "rule: a\non: contact.created\nwindow: { hours: '10:00-19:00' }\ndo:\n  - send-message: 'see https://x.test'\n",
      ),
    ).toEqual([]);
  });
});
