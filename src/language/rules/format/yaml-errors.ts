// The yaml library reports a structure slip in its own terms and often where it noticed it, not
// where it is ("Nested mappings are not allowed in compact mappings" on the line above an
// over-indented key; "Missing closing quote" at the end of the file). Rule authors edit YAML by
// hand: this turns the common slips (a key indented too far or not far enough, a tab, a missing
// space after a colon, an unclosed quote or brace, a repeated key) into one sentence at the line
// and column to fix. Pure: the error's code and position, and the file's text.

export interface YamlSlip {
  line: number;
  col: number;
  message: string;
}

interface RawError {
  code: string;
  message: string;
  /** 1-based position the library reported. */
  line: number;
  col: number;
}

const KEY_LINE = /^(\s*)(- +)?([A-Za-z_][\w.-]*):(?=\s|$)/;
const indentOf = (text: string) => /^ */.exec(text)![0].length;
const isContent = (text: string) => text.trim() !== '' && !text.trim().startsWith('#');

/** One human message per slip (several raw errors on one line give one). */
export function explainYamlErrors(text: string, errors: readonly RawError[]): YamlSlip[] {
  // Called per document: a file of 500 documents without a slip must not split its text 500 times.
  if (errors.length === 0) return [];
  const lines = text.split('\n');
  const out: YamlSlip[] = [];
  for (const err of errors) {
    const slip = explain(lines, err) ?? { line: err.line, col: err.col, message: rawMessage(err.message) };
    if (!out.some((s) => s.line === slip.line)) out.push(slip);
  }
  return out;
}

function rawMessage(message: string): string {
  return `YAML: ${message.split('\n')[0].replace(/ at line \d+, column \d+.*$/, '')}`;
}

function explain(lines: string[], err: RawError): YamlSlip | undefined {
  const at = lines[err.line - 1] ?? '';
  if (err.code === 'TAB_AS_INDENT' || /^ *\t/.test(at)) {
    return {
      line: err.line,
      col: at.indexOf('\t') + 1,
      message: 'a tab in the indentation: YAML indents with spaces only (replace the tab with spaces)',
    };
  }
  const noSpace = /^(\s*(?:- +)?)([A-Za-z_][\w.-]*):(\S.*)$/.exec(at);
  if (err.code === 'MULTILINE_IMPLICIT_KEY' && noSpace && !noSpace[3].startsWith('/')) {
    return {
      line: err.line,
      col: noSpace[1].length + noSpace[2].length + 2,
      message: `missing space after \`${noSpace[2]}:\`; write \`${noSpace[2]}: ${noSpace[3]}\``,
    };
  }
  if (/Missing closing ["']quote/.test(err.message)) return unclosedQuote(lines, err);
  if (err.code === 'BAD_INDENT' && /Flow (map|sequence)/.test(err.message)) return unclosedFlow(lines, err);
  if (err.code === 'DUPLICATE_KEY') {
    const key = KEY_LINE.exec(at)?.[3];
    if (key)
      return { line: err.line, col: indentOf(at) + 1, message: `\`${key}:\` appears twice in one mapping` };
  }
  if (err.code === 'BLOCK_AS_IMPLICIT_KEY' || err.code === 'MULTILINE_IMPLICIT_KEY')
    return overIndentedKey(lines, err.line) ?? misalignedItem(lines, err.line);
  if (/All mapping items must start at the same column/.test(err.message)) {
    // Reported on the over-indented key itself: its parent is the nearest key line to its left.
    for (let i = err.line - 2; i >= 0; i--) {
      if (!isContent(lines[i]) || indentOf(lines[i]) >= indentOf(at)) continue;
      const over = overIndentedKey(lines, i + 1);
      if (over) return over;
      break;
    }
    // Or under-indented, between its siblings' column and its parent's (reported at column 1).
    return underIndentedKey(lines, err.line);
  }
  if (/All sequence items must start at the same column/.test(err.message))
    return misalignedItem(lines, err.line);
  if (/Sequence item without - indicator/.test(err.message)) return keyBetweenItemAndList(lines, err.line);
  return undefined;
}

/** `description: hello` then `  on: ...` indented under it: the library blames the line above. */
function overIndentedKey(lines: string[], reported: number): YamlSlip | undefined {
  const parent = lines[reported - 1] ?? '';
  const parentKey = KEY_LINE.exec(parent);
  if (!parentKey || parent.slice(parentKey[0].length).trim() === '') return undefined;
  for (let i = reported; i < lines.length; i++) {
    if (!isContent(lines[i])) continue;
    const key = KEY_LINE.exec(lines[i]);
    const parentCol = parentKey[1].length + (parentKey[2]?.length ?? 0);
    if (!key || key[2] || indentOf(lines[i]) <= parentCol) return undefined;
    const scope = parentCol === 0 ? "a rule's keys" : 'keys of one mapping';
    return {
      line: i + 1,
      col: indentOf(lines[i]) + 1,
      message: `\`${key[3]}:\` is indented under \`${parentKey[3]}:\`; ${scope} start in the same column (column ${parentCol + 1})`,
    };
  }
  return undefined;
}

/** `name: x` then ` channel: y` one column left of it, still right of their parent: names both columns. */
function underIndentedKey(lines: string[], reported: number): YamlSlip | undefined {
  const at = lines[reported - 1] ?? '';
  const key = KEY_LINE.exec(at);
  if (!key || key[2]) return undefined;
  for (let i = reported - 2; i >= 0; i--) {
    if (!isContent(lines[i])) continue;
    const above = KEY_LINE.exec(lines[i]);
    if (!above) return undefined;
    const aboveCol = above[1].length + (above[2]?.length ?? 0);
    if (aboveCol <= indentOf(at)) return undefined;
    return {
      line: reported,
      col: indentOf(at) + 1,
      message: `\`${key[3]}:\` starts at column ${indentOf(at) + 1}, \`${above[3]}:\` above it at column ${aboveCol + 1}; keys of one mapping start in the same column`,
    };
  }
  return undefined;
}

/** A `- item` at another column than the items above it. */
function misalignedItem(lines: string[], reported: number): YamlSlip | undefined {
  const at = lines[reported - 1] ?? '';
  if (!/^\s*- /.test(at)) return undefined;
  for (let i = reported - 2; i >= 0; i--) {
    if (!isContent(lines[i])) continue;
    if (!/^\s*- /.test(lines[i]) || indentOf(lines[i]) === indentOf(at)) return undefined;
    return {
      line: reported,
      col: indentOf(at) + 1,
      message: `this list item starts at column ${indentOf(at) + 1}, the one above at column ${indentOf(lines[i]) + 1}; items of one list start in the same column`,
    };
  }
  return undefined;
}

/** `  - add-tag: x` then `   remove-tag: y`: neither the item's column nor the list's. */
function keyBetweenItemAndList(lines: string[], reported: number): YamlSlip | undefined {
  const at = lines[reported - 1] ?? '';
  const key = KEY_LINE.exec(at);
  if (!key || key[2]) return undefined;
  for (let i = reported - 2; i >= 0; i--) {
    const item = /^(\s*)(- +)([A-Za-z_][\w.-]*):/.exec(lines[i]);
    if (!item) continue;
    const itemCol = item[1].length + item[2].length + 1;
    return {
      line: reported,
      col: indentOf(at) + 1,
      message: `\`${key[3]}:\` does not line up with \`${item[3]}:\` of the list item above (column ${itemCol}): indent it to column ${itemCol} to continue that item, or write \`- ${key[3]}:\` to start a new one`,
    };
  }
  return undefined;
}

/** The library says so at the end of the file; the slip is where the quote opened. */
function unclosedQuote(lines: string[], err: RawError): YamlSlip | undefined {
  const quote = /Missing closing (["'])/.exec(err.message)![1];
  for (let i = 0; i < Math.min(lines.length, err.line); i++) {
    const open = new RegExp(`(?:^\\s*(?:- +)?|: +|- +)${quote}`).exec(lines[i]);
    if (!open) continue;
    const start = open.index + open[0].length - 1;
    const rest = lines[i].slice(start + 1);
    const closed = quote === '"' ? /(^|[^\\])"/.test(rest) : rest.replace(/''/g, '').includes("'");
    if (!closed)
      return {
        line: i + 1,
        col: start + 1,
        message: `the quote ${quote} opened here is never closed; close it on this line`,
      };
  }
  return undefined;
}

/** `{ fact: ..., value: x` without its `}` (or `[` without `]`): point at the opening one. */
function unclosedFlow(lines: string[], err: RawError): YamlSlip | undefined {
  const [open, close] = /Flow map/.test(err.message) ? ['{', '}'] : ['[', ']'];
  for (let i = err.line - 1; i >= 0; i--) {
    const text = lines[i].replace(/(["'])(?:(?!\1).)*\1/g, (m) => ' '.repeat(m.length));
    const depth = [...text].reduce((d, c) => d + (c === open ? 1 : c === close ? -1 : 0), 0);
    if (depth > 0)
      return {
        line: i + 1,
        col: text.indexOf(open) + 1,
        message: `the \`${open}\` opened here is never closed with \`${close}\``,
      };
  }
  return undefined;
}
