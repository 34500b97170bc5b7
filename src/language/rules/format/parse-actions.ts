// `do:` / `on-leave:` items as written in YAML -> RuleActions, through the action catalogue
// (src/language/catalogue): each entry parses its own value. Names or uuids are kept as
// written: the engine resolves them against the CRM.
import { listInWords } from '../../catalogue/action-definition';
import { ACTION_DEFINITIONS, ACTION_TYPES, actionDefinition, isActionType } from '../../catalogue/catalogue';
import type { RuleAction } from './rule-types';
import { withActionCategory } from './message-categories';
import { isPlainObject, type ProblemCollector } from './problem-collector';
import type { YamlPath } from './yaml-source';

export const ACTION_KEYS = ACTION_TYPES;

const WITH_ASSIGN_FIRST = ACTION_DEFINITIONS.filter((d) => d.messaging).map((d) => d.type);
const BARE = ACTION_DEFINITIONS.filter((d) => d.bare).map((d) => d.type);

/** Actions, or undefined when any item has a problem (reported on ctx; schema problems are reported elsewhere). */
export function parseActions(raw: unknown, path: YamlPath, ctx: ProblemCollector): RuleAction[] | undefined {
  const before = ctx.errorCount();
  return completeActions(parseActionItems(raw, path, ctx), before, ctx);
}

/** The items as actions when every one parsed and no error was reported since `errorsBefore`. */
export function completeActions(
  items: (RuleAction | undefined)[] | undefined,
  errorsBefore: number,
  ctx: ProblemCollector,
): RuleAction[] | undefined {
  return items && ctx.errorCount() === errorsBefore && items.every(Boolean)
    ? (items as RuleAction[])
    : undefined;
}

/** One entry per item (undefined where the item has a problem), so later checks still see the good ones. */
export function parseActionItems(
  raw: unknown,
  path: YamlPath,
  ctx: ProblemCollector,
): (RuleAction | undefined)[] | undefined {
  return Array.isArray(raw)
    ? raw.map((item, i) => {
        // `category:` beside a customer message (message-categories.ts), as in do: steps.
        if (!isPlainObject(item) || !('category' in item)) return parseAction(item, [...path, i], ctx);
        const { category, ...action } = item;
        return withActionCategory(parseAction(action, [...path, i], ctx), category, [...path, i], ctx);
      })
    : undefined;
}

export function parseAction(item: unknown, path: YamlPath, ctx: ProblemCollector): RuleAction | undefined {
  if (typeof item === 'string' && (BARE as readonly string[]).includes(item))
    return build(item, null, undefined, path, ctx);
  if (!isPlainObject(item)) return undefined;
  const keys = Object.keys(item).filter((k) => k !== 'assign-first');
  if (!keys.every(isActionType)) return undefined; // unknown action: the schema reported it
  if (keys.length !== 1) {
    const message =
      keys.length === 0
        ? `assign-first goes with ${listInWords(WITH_ASSIGN_FIRST)}`
        : `one action per item, found ${keys.join(' and ')}: write each as its own "- " item`;
    ctx.error(path, 'invalid-action', message);
    return undefined;
  }
  const type = keys[0];
  const assignFirst = item['assign-first'];
  if (assignFirst !== undefined && !(WITH_ASSIGN_FIRST as readonly string[]).includes(type)) {
    ctx.error(
      [...path, 'assign-first'],
      'invalid-action',
      `assign-first only applies to ${listInWords(WITH_ASSIGN_FIRST)}, not ${type}`,
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
  type: string,
  value: unknown,
  assignFirst: string | undefined,
  path: YamlPath,
  ctx: ProblemCollector,
): RuleAction | undefined {
  const members = actionDefinition(type).parse(value, path, ctx);
  if (!members) return undefined;
  return { type, ...members, ...(assignFirst !== undefined ? { assignFirst } : {}) } as RuleAction;
}
