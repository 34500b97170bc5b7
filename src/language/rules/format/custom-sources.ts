// Custom event sources (sources.yaml in the rules directory): the systems besides the CRM that may
// start rules, through POST /hooks/<name>. Parsed and checked like rules (file:line:col), loaded
// and versioned with the rule set. Pure: no Nest, no I/O.
import Ajv, { type ValidateFunction } from 'ajv';
import { basename } from 'node:path';
import type { FieldType } from './fact-shapes';
import type { RuleProblem } from './rule-types';
import { issuesToProblems, createAjv, schemaIssues } from './schema-problems';
import sourcesSchema from './sources.schema.json';
import { parseYamlFile, type Locator } from './yaml-source';

export interface CustomSourceDeclaration {
  name: string;
  description?: string;
  /** The environment variable's name; the value is read at delivery time and never stored. */
  secret: string;
  'event-id'?: string;
  schema: Record<string, unknown>;
  contact: { by: 'id' | 'phone' | 'email'; from: string; create?: boolean; 'name-from'?: string };
}

export interface CustomSource extends CustomSourceDeclaration {
  /** ajv's compiled check of the payload. */
  validate: ValidateFunction;
}

export type CustomSources = ReadonlyMap<string, CustomSource>;
export const NO_SOURCES: CustomSources = new Map();

/** `sources.yaml` (or .yml), directly in the rules directory or below it. */
export function isSourcesFile(path: string): boolean {
  return /^sources\.ya?ml$/i.test(basename(path));
}

let validator: ValidateFunction | undefined;
function sourcesValidator(): ValidateFunction {
  validator ??= createAjv().compile(sourcesSchema);
  return validator;
}

/** Payload schemas are the senders' own: standard draft-07, lenient about unknown keywords. */
const payloadAjv = new Ajv({ allErrors: true, strict: false });

export interface ParsedSources {
  sources: CustomSources;
  /** Where each source is declared (for problems in rules that name it). */
  at: ReadonlyMap<string, Locator>;
  problems: RuleProblem[];
}

export function parseSources(files: readonly { path: string; text: string }[]): ParsedSources {
  const sources = new Map<string, CustomSource>();
  const at = new Map<string, Locator>();
  const problems: RuleProblem[] = [];
  for (const file of files) {
    const parsed = parseYamlFile(file.path, file.text);
    problems.push(...parsed.problems);
    for (const doc of parsed.documents) {
      const issues = schemaIssues(sourcesValidator(), doc.value);
      problems.push(...issuesToProblems(issues, doc.at));
      if (issues.length > 0) continue;
      const list = (doc.value as { sources: CustomSourceDeclaration[] }).sources;
      list.forEach((decl, i) => {
        const where = doc.at.child(['sources', i]);
        const error = (path: (string | number)[], code: RuleProblem['code'], message: string) =>
          problems.push({ ...where.pos(path), severity: 'error', code, message });
        if (sources.has(decl.name))
          return error(['name'], 'duplicate-id', `source "${decl.name}" is declared twice`);
        if (decl.contact.create && decl.contact.by !== 'phone')
          return error(
            ['contact', 'create'],
            'schema',
            'only a contact found by phone can be created (the CRM requires a phone)',
          );
        let validate: ValidateFunction;
        try {
          validate = payloadAjv.compile(decl.schema);
        } catch (err) {
          return error(['schema'], 'schema', `invalid JSON Schema: ${(err as Error).message}`);
        }
        sources.set(decl.name, { ...decl, validate });
        at.set(decl.name, where);
      });
    }
  }
  return { sources, at, problems };
}

/** What the version of the rule set covers of the sources: their declarations, not ajv's code. */
export function sourcesFingerprint(sources: CustomSources): unknown[] {
  return [...sources.values()]
    .map(({ validate: _compiled, ...decl }) => decl)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The value at a JSON pointer (RFC 6901), or undefined. */
export function readPointer(value: unknown, pointer: string): unknown {
  let node = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key))
      return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The shape of `event.data` for the validator, from the payload's JSON Schema: an object's
 * declared properties are its fields (an undeclared one is a typo that would never match).
 */
export function shapeOfSchema(schema: unknown): FieldType {
  if (schema === null || typeof schema !== 'object') return { kind: 'any' };
  const s = schema as Record<string, unknown>;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const nullable = types.includes('null');
  if (s.properties && typeof s.properties === 'object') {
    const fields: Record<string, FieldType> = {};
    for (const [key, sub] of Object.entries(s.properties as Record<string, unknown>))
      fields[key] = shapeOfSchema(sub);
    return { kind: 'object', fields };
  }
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string'))
    return { kind: 'enum', values: s.enum as string[] };
  if (types.includes('string')) return { kind: 'string', nullable };
  if (types.includes('number') || types.includes('integer')) return { kind: 'number', nullable };
  if (types.includes('boolean')) return { kind: 'boolean', nullable };
  return { kind: 'any' };
}
