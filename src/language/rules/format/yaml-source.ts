// YAML parsing with positions: every problem is reported as file:line:col, so each value of a
// rule keeps a way back to the node it came from (the `yaml` package's ranges + LineCounter).
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  type Document,
  type Node,
} from 'yaml';
import type { RuleProblem, SourcePosition } from './rule-types';
import { explainYamlErrors } from './yaml-errors';

export type YamlPath = readonly (string | number)[];

/** Finds the position of a value (or of its key) inside one YAML document. */
export class Locator {
  constructor(
    readonly file: string,
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly base: YamlPath = [],
  ) {}

  child(path: YamlPath): Locator {
    return new Locator(this.file, this.doc, this.lines, [...this.base, ...path]);
  }

  /** Position of the node at `path`; `key` points at the mapping key instead of its value. The deepest existing node wins. */
  pos(path: YamlPath = [], target: 'value' | 'key' = 'value'): SourcePosition {
    const offset = this.offsetOf([...this.base, ...path], target);
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, col };
  }

  private offsetOf(path: YamlPath, target: 'value' | 'key'): number {
    let node: unknown = this.doc.contents;
    let offset = rangeStart(node) ?? 0;
    for (let i = 0; i < path.length; i++) {
      if (isAlias(node)) node = node.resolve(this.doc);
      const seg = path[i];
      const last = i === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(seg));
        // A single condition written as `if: { fact... }` is checked as `all: [it]`.
        if (!pair && seg === 'all' && path[i + 1] === 0 && !last) {
          i++;
          continue;
        }
        if (!pair) return offset;
        const keyStart = rangeStart(pair.key);
        if (last && target === 'key' && keyStart !== undefined) return keyStart;
        node = pair.value;
        // `key:` with nothing after it has no value range: point at the key.
        offset = rangeStart(node) ?? keyStart ?? offset;
      } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
        node = node.items[seg];
        offset = rangeStart(node) ?? offset;
      } else {
        return offset;
      }
    }
    return offset;
  }
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null)?.range;
  return range ? range[0] : undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === 'string' ? key : undefined;
}

export interface YamlDocument {
  value: unknown;
  at: Locator;
}

export interface ParsedYaml {
  documents: YamlDocument[];
  problems: RuleProblem[];
}

/** Every document of a file; documents with syntax errors are reported and left out. */
export function parseYamlFile(file: string, text: string, options: { merge?: boolean } = {}): ParsedYaml {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, {
    lineCounter: lines,
    prettyErrors: false,
    merge: options.merge ?? false,
  });
  const problems: RuleProblem[] = [];
  const documents: YamlDocument[] = [];
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    const raw = doc.errors.map((err) => ({
      code: err.code,
      message: err.message,
      ...lines.linePos(err.pos[0]),
    }));
    for (const slip of explainYamlErrors(text, raw))
      problems.push({ file, ...slip, severity: 'error', code: 'yaml-syntax' });
    if (doc.errors.length > 0) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      problems.push({
        file,
        line: 1,
        col: 1,
        message: `YAML: ${(err as Error).message}`,
        severity: 'error',
        code: 'yaml-syntax',
      });
      continue;
    }
    if (value === null || value === undefined) continue; // empty document (comments only)
    documents.push({ value, at: new Locator(file, doc, lines) });
  }
  return { documents, problems };
}
