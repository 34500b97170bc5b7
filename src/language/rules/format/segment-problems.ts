// Segment names and filters are checked by packages/crm-contract/src/segment-filter-constraints.ts (the single
// home of docs/CRM-API.md §2.4's constraints); this maps its `param` paths back to YAML positions.
import type { CrmErrorDetail } from '@crm-rules/crm-contract';
import { SEGMENT_FILTER_MEMBERS, validateSegmentFilters, validateSegmentName } from '@crm-rules/crm-contract';
import { isPlainObject, type ProblemCollector } from './problem-collector';
import { hint } from './suggest';
import { UNSUPPORTED_SEGMENT_MEMBERS } from './unsupported-segment-members';
import type { YamlPath } from './yaml-source';

/** `filters.phoneFilters[0].prefix` -> ['phoneFilters', 0, 'prefix'] (relative to the filters node). */
export function paramToPath(param: string, prefix: string): (string | number)[] {
  const rest = param.startsWith(prefix) ? param.slice(prefix.length) : param;
  const out: (string | number)[] = [];
  for (const m of rest.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g))
    out.push(m[1] !== undefined ? m[1] : Number(m[2]));
  return out;
}

function report(details: CrmErrorDetail[], base: YamlPath, prefix: string, ctx: ProblemCollector): void {
  for (const d of details) {
    const rel = paramToPath(d.param, prefix);
    const where = [...base, ...rel];
    const name = rel.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
    if (d.code === 'unrecognized_keys') {
      const key = String(rel[rel.length - 1]);
      const candidates = rel.length === 1 ? SEGMENT_FILTER_MEMBERS : [];
      ctx.error(
        where,
        'invalid-segment',
        `unknown segment filter "${name}"${hint(key, candidates, 0)}`,
        'key',
      );
    } else {
      const what = prefix === 'name' ? 'name' : name ? `filter ${name}` : 'filters';
      ctx.error(where, 'invalid-segment', `segment ${what}: ${d.message}`);
    }
  }
}

export function checkSegmentName(name: unknown, path: YamlPath, ctx: ProblemCollector): void {
  report(validateSegmentName(name, 'name'), path, 'name', ctx);
}

/**
 * `engine: true` for segment rules: the engine evaluates the filters on the contact mirror, so
 * relative dates are allowed and members the contact data cannot answer are refused.
 */
export function checkSegmentFilters(
  filters: unknown,
  path: YamlPath,
  ctx: ProblemCollector,
  engine: boolean,
): void {
  report(
    // Tags, stages and members by name or uuid, as in conditions and actions (resolved at run time).
    validateSegmentFilters(filters, { allowRelativeDates: engine, allowNames: true, paramPrefix: 'filters' }),
    path,
    'filters',
    ctx,
  );
  if (!engine || !isPlainObject(filters)) return;
  for (const [member, reason] of Object.entries(UNSUPPORTED_SEGMENT_MEMBERS)) {
    if (!(member in filters)) continue;
    const value = filters[member];
    // Omitted, null and [] constrain nothing (the segment engine ignores them): only say so.
    if (value === null || (Array.isArray(value) && value.length === 0)) {
      ctx.warn(
        [...path, member],
        'unsupported-segment-filter',
        `segment filter "${member}" is empty and has no effect (the engine cannot evaluate it: ${reason})`,
        'key',
      );
    } else {
      ctx.error(
        [...path, member],
        'unsupported-segment-filter',
        `segment filter "${member}" cannot be evaluated by the engine: ${reason}`,
        'key',
      );
    }
  }
}
