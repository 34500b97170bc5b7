// `do:` / `on-leave:` items as written in YAML -> the RuleAction union of rule-types.ts.
// Names or uuids are kept as written: the engine resolves them against the CRM.
import type { RuleAction } from './rule-types';
import { isPlainObject, type RuleContext } from './rule-context';
import { checkSegmentFilters, checkSegmentName } from './segment-problems';
import type { YamlPath } from './yaml-source';

export const ACTION_KEYS = [
  'add-tag',
  'remove-tag',
  'move-stage',
  'assign',
  'react',
  'send-message',
  'open-conversation',
  'block',
  'unblock',
  'create-segment',
] as const;

const WITH_ASSIGN_FIRST = ['react', 'send-message'];

/** Actions, or undefined when any item has a problem (reported on ctx; schema problems are reported elsewhere). */
export function parseActions(raw: unknown, path: YamlPath, ctx: RuleContext): RuleAction[] | undefined {
  const before = ctx.errorCount();
  return completeActions(parseActionItems(raw, path, ctx), before, ctx);
}

/** The items as actions when every one parsed and no error was reported since `errorsBefore`. */
export function completeActions(
  items: (RuleAction | undefined)[] | undefined,
  errorsBefore: number,
  ctx: RuleContext,
): RuleAction[] | undefined {
  return items && ctx.errorCount() === errorsBefore && items.every(Boolean)
    ? (items as RuleAction[])
    : undefined;
}

/** One entry per item (undefined where the item has a problem), so later checks still see the good ones. */
export function parseActionItems(
  raw: unknown,
  path: YamlPath,
  ctx: RuleContext,
): (RuleAction | undefined)[] | undefined {
  return Array.isArray(raw) ? raw.map((item, i) => parseAction(item, [...path, i], ctx)) : undefined;
}

function parseAction(item: unknown, path: YamlPath, ctx: RuleContext): RuleAction | undefined {
  if (item === 'block' || item === 'unblock') return { type: item };
  if (!isPlainObject(item)) return undefined;
  const keys = Object.keys(item).filter((k) => k !== 'assign-first');
  const known = keys.filter((k) => (ACTION_KEYS as readonly string[]).includes(k));
  if (known.length !== keys.length) return undefined; // unknown action: the schema reported it
  if (keys.length !== 1) {
    const message =
      keys.length === 0
        ? 'assign-first goes with react or send-message'
        : `one action per item, found ${keys.join(' and ')}: write each as its own "- " item`;
    ctx.error(path, 'invalid-action', message);
    return undefined;
  }
  const type = keys[0] as RuleAction['type'];
  const assignFirst = item['assign-first'];
  if (assignFirst !== undefined && !WITH_ASSIGN_FIRST.includes(type)) {
    ctx.error(
      [...path, 'assign-first'],
      'invalid-action',
      `assign-first only applies to react and send-message, not ${type}`,
      'key',
    );
    return undefined;
  }
  return build(
    type,
    item[type],
    typeof assignFirst === 'string' ? assignFirst : undefined,
    [...path, type],
    ctx,
  );
}

function build(
  type: RuleAction['type'],
  value: unknown,
  assignFirst: string | undefined,
  path: YamlPath,
  ctx: RuleContext,
): RuleAction | undefined {
  const text = typeof value === 'string' ? value : undefined;
  switch (type) {
    case 'add-tag':
    case 'remove-tag':
      return text === undefined ? undefined : { type, tag: text };
    case 'move-stage':
      return value === null ? { type, stage: null } : text === undefined ? undefined : { type, stage: text };
    case 'assign':
      return text === undefined ? undefined : { type, member: text };
    case 'react':
      return text === undefined
        ? undefined
        : { type, emoji: text, ...(assignFirst !== undefined ? { assignFirst } : {}) };
    case 'send-message':
      return text === undefined
        ? undefined
        : { type, text, ...(assignFirst !== undefined ? { assignFirst } : {}) };
    case 'open-conversation':
      return text === undefined ? undefined : { type, channel: text };
    case 'block':
    case 'unblock':
      return { type };
    case 'create-segment':
      return createSegment(value, path, ctx);
  }
}

function createSegment(value: unknown, path: YamlPath, ctx: RuleContext): RuleAction | undefined {
  if (!isPlainObject(value)) return undefined;
  const before = ctx.errorCount();
  // A missing name or filters is a schema problem, reported there; what is present is checked.
  if (value.name !== undefined) checkSegmentName(value.name, [...path, 'name'], ctx);
  // Sent to the CRM as written: ISO dates only, and every member of 2.4 is allowed.
  if (value.filters !== undefined) checkSegmentFilters(value.filters, [...path, 'filters'], ctx, false);
  if (ctx.errorCount() > before || value.name === undefined || value.filters === undefined) return undefined;
  return {
    type: 'create-segment',
    name: value.name as string,
    filters: value.filters as Record<string, unknown>,
  };
}
