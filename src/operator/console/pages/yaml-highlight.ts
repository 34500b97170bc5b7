// A rule's YAML as coloured tokens for the rule page: comments, keys, quoted strings, literals
// (numbers, true/false/null), mustache values ({{contact.name}}) and the rest. Done on the server
// and rendered by mustache (each token's text escaped, a class per kind), so the page needs no
// script and the console's CSP (no inline script or style) holds. Not a YAML parser: a line-wise
// tokenizer, enough to read a rule. Pure.

export type YamlTokenKind = 'comment' | 'key' | 'string' | 'literal' | 'template' | 'punct' | 'plain';

export interface YamlToken {
  kind: YamlTokenKind;
  text: string;
}

export interface YamlLine {
  number: number;
  tokens: YamlToken[];
}

// Alternatives in order of precedence; each match is one token, the text between them `plain`.
const TOKEN = new RegExp(
  [
    /(?<comment>(?:^|(?<=\s))#.*$)/.source,
    /(?<string>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')/.source,
    /(?<template>\{\{[^}]*\}\})/.source,
    /(?<key>[A-Za-z_$][\w.$-]*(?=:(?:\s|$)))/.source,
    /(?<literal>(?<![\w.-])(?:true|false|null|-?\d+(?:\.\d+)?)(?![\w.-]))/.source,
    /(?<punct>---|[{}[\],:]|(?<=^\s*)-(?=\s))/.source,
  ].join('|'),
  'g',
);

export function highlightLine(line: string): YamlToken[] {
  const tokens: YamlToken[] = [];
  let at = 0;
  for (const m of line.matchAll(TOKEN)) {
    if (m.index > at) tokens.push({ kind: 'plain', text: line.slice(at, m.index) });
    const kind = Object.entries(m.groups ?? {}).find(([, v]) => v !== undefined)![0] as YamlTokenKind;
    tokens.push({ kind, text: m[0] });
    at = m.index + m[0].length;
  }
  if (at < line.length) tokens.push({ kind: 'plain', text: line.slice(at) });
  return tokens;
}

/** `text` line by line; `firstLine` numbers them as in their file. */
export function highlightYaml(text: string, firstLine = 1): YamlLine[] {
  return text.split('\n').map((line, i) => ({ number: firstLine + i, tokens: highlightLine(line) }));
}
