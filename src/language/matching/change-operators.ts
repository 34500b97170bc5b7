// Change operators: conditions on what an event changed (`changedTo: Qualified`, `added: vip`),
// comparing the contact before the event (the `previous` fact, from the mirror) with the contact
// the event carries. Pure: the names of stages and members come resolved (facts.names), tags
// carry their names. They are not json-rules-engine Operators: those see one fact value, a
// change needs two.
import { CHANGE_OPERATORS, tagsOf } from './operators';
import type { NameResolver } from '../rules/format/rule-types';

export type ChangeOperator = (typeof CHANGE_OPERATORS)[number];

const CHANGE_SET: ReadonlySet<string> = new Set(CHANGE_OPERATORS);
/** Operators on the tag list; the others compare one field. */
export const TAG_CHANGE_OPERATORS: ReadonlySet<string> = new Set(['added', 'removed']);

/** Contact fields holding an id whose value may be written as a name, and the directory kind. */
export const NAMED_ID_FIELDS: Readonly<Record<string, 'stage' | 'member'>> = {
  stageId: 'stage',
  assigneeId: 'member',
};

/** What an unrecorded previous state is called in the trace and the docs. */
export const NO_PREVIOUS_STATE = 'no previous state';

export function isChangeOperator(base: string): base is ChangeOperator {
  return CHANGE_SET.has(base);
}

export interface ChangeLeaf {
  operator: ChangeOperator;
  value: unknown;
  /** The directory kind when the field is `stageId` / `assigneeId`: the value may be a name. */
  idKind?: 'stage' | 'member';
  /** The field is the tag list: `changed` compares the set of tags, not their order. */
  tags?: boolean;
}

/** Does the change from `before` to `after` satisfy the leaf? (Both read at the leaf's path.) */
export function changeHolds(
  leaf: ChangeLeaf,
  before: unknown,
  after: unknown,
  names: NameResolver | undefined,
): boolean {
  switch (leaf.operator) {
    case 'changed':
      return leaf.tags ? !sameValue(tagIds(before), tagIds(after)) : !sameValue(before, after);
    case 'changedTo': {
      const is = valueTest(leaf, names);
      return is(after) && !is(before);
    }
    case 'changedFrom': {
      const is = valueTest(leaf, names);
      return is(before) && !is(after);
    }
    case 'added':
      return hasTag(after, leaf.value) && !hasTag(before, leaf.value);
    case 'removed':
      return hasTag(before, leaf.value) && !hasTag(after, leaf.value);
  }
}

/**
 * Equality with the leaf's value: strict, except that a stage or member may be named (resolved to
 * its uuid through `names`; a uuid compares as is). An unknown name equals nothing.
 */
function valueTest(leaf: ChangeLeaf, names: NameResolver | undefined): (v: unknown) => boolean {
  const wanted = leaf.value;
  if (leaf.idKind && typeof wanted === 'string') {
    const id = names?.(leaf.idKind, wanted);
    return (v) => v === wanted || (id !== undefined && v === id);
  }
  return (v) => sameValue(v, wanted);
}

/** Deep equality of JSON values (tags and custom fields are lists and objects); null and undefined are the same absence. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  if (a instanceof Date || b instanceof Date) return toMillis(a) === toMillis(b);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const toMillis = (v: unknown) => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());

const tagIds = (tags: unknown) =>
  tagsOf(tags)
    .map((t) => String(t?.id ?? t?.name))
    .sort();

/** A tag named by its uuid or its name (names compare case-insensitively, as hasTag does). */
function hasTag(tags: unknown, wanted: unknown): boolean {
  if (typeof wanted !== 'string') return false;
  const name = wanted.toLowerCase();
  return tagsOf(tags).some(
    (t) => t && (t.id === wanted || (typeof t.name === 'string' && t.name.toLowerCase() === name)),
  );
}

export interface ChangeName {
  kind: 'stage' | 'member';
  name: string;
}

/** The stage and member names change leaves compare with (resolved to ids before evaluating). */
export function changeNamesOf(node: unknown, out: ChangeName[] = []): ChangeName[] {
  if (!node || typeof node !== 'object') return out;
  const n = node as Record<string, unknown>;
  for (const key of ['all', 'any'] as const)
    if (Array.isArray(n[key])) for (const c of n[key] as unknown[]) changeNamesOf(c, out);
  if (n.not) changeNamesOf(n.not, out);
  const base = typeof n.operator === 'string' ? n.operator.split(':').pop()! : '';
  const field = typeof n.path === 'string' ? n.path.replace(/^\$\./, '') : '';
  const kind = NAMED_ID_FIELDS[field];
  if (kind && (base === 'changedTo' || base === 'changedFrom') && typeof n.value === 'string')
    if (!out.some((x) => x.kind === kind && x.name === n.value)) out.push({ kind, name: n.value });
  return out;
}

/** Does the condition tree have a change leaf? */
export function usesChangeOperator(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  const n = node as Record<string, unknown>;
  if (typeof n.operator === 'string') return isChangeOperator(n.operator.split(':').pop()!);
  return [...(Array.isArray(n.all) ? n.all : []), ...(Array.isArray(n.any) ? n.any : []), n.not].some(
    usesChangeOperator,
  );
}
