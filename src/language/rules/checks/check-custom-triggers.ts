// Set-level checks of rules listening to custom sources (`on: custom.<name>`): the source must be
// declared in sources.yaml, and `event.data.*` facts must be properties of its payload schema.
import { customSourceOf, isCustomEventKind } from '../format/custom-event-kind';
import { shapeOfSchema, type CustomSources } from '../format/custom-sources';
import { parseFactPath } from '../../matching/fact-path';
import type { FieldType } from '../format/fact-shapes';
import type { LoadedRule } from '../format/loaded-rule';
import { hint } from '../format/suggest';
import type { RuleProblem } from '../format/rule-types';
import type { YamlPath } from '../format/yaml-source';

type Node = Record<string, unknown>;

export function checkCustomTriggers(loaded: readonly LoadedRule[], sources: CustomSources): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const { def, at } of loaded) {
    if (def.trigger.kind !== 'event') continue;
    const events = def.trigger.events;
    events.forEach((kind, i) => {
      if (!isCustomEventKind(kind)) return;
      const name = customSourceOf(kind);
      const source = sources.get(name);
      if (!source) {
        const known = [...sources.keys()];
        problems.push({
          ...at.pos(['on', i]),
          severity: 'error',
          code: 'unknown-event',
          message: `unknown source "${name}": declare it in sources.yaml${known.length ? hint(name, known) : ' (none is declared)'}`,
        });
        return;
      }
      const shape = shapeOfSchema(source.schema);
      walk(def.conditions, ['if'], (leaf, path) => {
        const segments = dataSegments(leaf);
        if (!segments) return;
        const found = lookupPath(shape, segments);
        if (found.ok) return;
        problems.push({
          ...at.pos([...path, 'fact']),
          severity: 'error',
          code: 'unknown-fact',
          message: `unknown fact path "event.data.${segments.join('.')}": ${found.error} in the schema of source "${name}"${hint(found.field, found.suggestions, 0)}`,
        });
      });
    });
  }
  return problems;
}

function walk(node: unknown, path: YamlPath, visit: (leaf: Node, path: YamlPath) => void): void {
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  for (const key of ['all', 'any'])
    if (Array.isArray(n[key])) (n[key] as unknown[]).forEach((c, i) => walk(c, [...path, key, i], visit));
  if (n.not) walk(n.not, [...path, 'not'], visit);
  if (typeof n.fact === 'string') visit(n, path);
}

/** The path under `event.data` a leaf reads (fact: event.data.x, or fact: event with path: $.data.x). */
function dataSegments(leaf: Node): string[] | undefined {
  const [root, ...rest] = (leaf.fact as string).split('.');
  if (root !== 'event') return undefined;
  const segments = typeof leaf.path === 'string' ? (parseFactPath(leaf.path) ?? []).map(String) : rest;
  return segments[0] === 'data' && segments.length > 1 ? segments.slice(1) : undefined;
}

type Lookup = { ok: true } | { ok: false; error: string; field: string; suggestions: string[] };

/** Walks the payload's shape; an object's undeclared property is refused, anything under "any" allowed. */
function lookupPath(shape: FieldType, segments: readonly string[]): Lookup {
  let type = shape;
  let walked = 'event.data';
  for (const seg of segments) {
    if (type.kind === 'any') return { ok: true };
    if (type.kind !== 'object')
      return {
        ok: false,
        error: `${walked} is a ${type.kind} and has no field "${seg}"`,
        field: seg,
        suggestions: [],
      };
    const next = Object.prototype.hasOwnProperty.call(type.fields, seg) ? type.fields[seg] : undefined;
    if (!next)
      return {
        ok: false,
        error: `${walked} has no field "${seg}"`,
        field: seg,
        suggestions: Object.keys(type.fields),
      };
    type = next;
    walked = `${walked}.${seg}`;
  }
  return { ok: true };
}
