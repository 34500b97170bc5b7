// Where a change operator (`changed`, `changedTo`, `changedFrom`, `added`, `removed`) may be
// written, and what it takes. A change needs the contact as it was before the event, which the
// engine has only for the contact events that update its mirror: anywhere else the condition
// could never be decided, so it is refused rather than silently never matching.
import { isUuid } from '@crm-rules/crm-contract';
import { NAMED_ID_FIELDS, TAG_CHANGE_OPERATORS } from '../../matching/change-operators';
import type { ResolvedFact } from './check-conditions';
import type { ProblemCollector } from '../format/problem-collector';
import type { YamlPath } from '../format/yaml-source';

/** Event kinds whose rules have a previous state: the mirror is updated from their payload. */
export const PREVIOUS_STATE_EVENTS: readonly string[] = ['contact.created', 'contact.updated'];

const show = (v: unknown) => JSON.stringify(v);

/** True when the leaf is acceptable; problems are reported on ctx (file:line:col of `path`). */
export function checkChangeLeaf(
  operator: { base: string; decorators: string[] },
  value: unknown,
  fact: ResolvedFact,
  path: YamlPath,
  ctx: ProblemCollector,
  kinds: readonly string[] | undefined,
): void {
  const { base, decorators } = operator;
  const opPath = [...path, 'operator'];
  const where = path[0] === 'if' ? kinds : undefined;
  if (!where || where.length === 0 || where.some((k) => !PREVIOUS_STATE_EVENTS.includes(k))) {
    const why =
      path[0] !== 'if'
        ? `only in a rule's \`if\` (a wait's \`unless\` or \`until\` has no event that changed the contact)`
        : `only on ${PREVIOUS_STATE_EVENTS.join(' and ')} rules, where the engine has the contact as it was before the event${kinds?.length ? `; this rule listens to ${kinds.join(', ')}` : '; segment rules have no event'}`;
    return ctx.error(opPath, 'change-without-previous', `${base} compares with the previous state: ${why}`);
  }
  if (decorators.some((d) => d !== 'not'))
    return ctx.error(opPath, 'invalid-value', `${base} takes only the not: decorator`);
  if (fact.root !== 'contact')
    return ctx.error(
      [...path, 'fact'],
      'invalid-value',
      `${base} compares contact fields with their previous value: use fact contact.<field>, not ${fact.label}`,
    );
  const valuePath = [...path, 'value'];
  const field = fact.segments.length === 1 ? fact.segments[0] : undefined;
  if (TAG_CHANGE_OPERATORS.has(base)) {
    if (fact.segments.length > 0 && field !== 'tags')
      return ctx.error(opPath, 'invalid-value', `${base} reads the contact's tags: use fact contact.tags`);
    if (typeof value !== 'string' || value.trim() === '')
      ctx.error(valuePath, 'invalid-value', `${base} takes a tag name or uuid, not ${show(value)}`);
    return;
  }
  if (fact.segments.length === 0)
    return ctx.error(
      [...path, 'fact'],
      'invalid-value',
      `${base} compares one field: name it, e.g. contact.stageId`,
    );
  if (base === 'changed') {
    if (value !== true) ctx.error(valuePath, 'invalid-value', `changed takes true, not ${show(value)}`);
    return;
  }
  if (field === 'tags')
    return ctx.error(opPath, 'invalid-value', `${base} on contact.tags: use added or removed with a tag`);
  const named = field ? NAMED_ID_FIELDS[field] : undefined;
  if (named) {
    if (value !== null && (typeof value !== 'string' || value.trim() === ''))
      ctx.error(
        valuePath,
        'invalid-value',
        `${base} takes a ${named} name or uuid (or null), not ${show(value)}`,
      );
    return;
  }
  if (fact.type.kind === 'uuid' && value !== null && !isUuid(value))
    ctx.error(valuePath, 'invalid-value', `${fact.label} holds a uuid: ${show(value)} never matches`);
  else if (value !== null && typeof value === 'object')
    ctx.error(valuePath, 'invalid-value', `${base} takes one value, not ${show(value)}`);
}
