// The directory names a segment's filters use (tagIds, stageIds, assigneeIds, custom field keys),
// for the snapshot name check: shared by segment triggers and the create-segment action.
import type { NameKind, NameUse } from '../../catalogue/action-definition';

const FILTER_KINDS: [member: string, kind: NameKind][] = [
  ['tagIds', 'tag'],
  ['stageIds', 'stage'],
  ['assigneeIds', 'member'],
];

/** Paths are relative to the filters object. */
export function segmentFilterNames(filters: Record<string, unknown>): NameUse[] {
  const uses: NameUse[] = [];
  for (const [member, kind] of FILTER_KINDS) {
    const values = filters[member];
    if (!Array.isArray(values)) continue;
    values.forEach((v, j) => typeof v === 'string' && uses.push({ kind, name: v, path: [member, j] }));
  }
  const custom = filters.customFieldFilters;
  if (Array.isArray(custom))
    custom.forEach((f: { fieldKey?: unknown }, j) => {
      if (typeof f?.fieldKey === 'string')
        uses.push({ kind: 'custom field', name: f.fieldKey, path: ['customFieldFilters', j, 'fieldKey'] });
    });
  return uses;
}
