// Segments (docs/CRM-API.md §4.1 and A12): create with every constraint of 2.4 checked
// by segment-filter-constraints.ts, names unique per organization (409), and list.
import { randomUUID } from 'node:crypto';
import type { Segment, SegmentFilters } from '@crm-rules/crm-contract';
import { detail, validateSegmentFilters, validateSegmentName } from '@crm-rules/crm-contract';
import { assertValid, conflict } from './sandbox-error';
import type { OpContext } from './sandbox-state';

export function createSegment(ctx: OpContext, body: unknown): Segment {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    assertValid([detail('body', 'invalid_type', 'Expected object')]);
  const { name, filters, ...unknown } = (body ?? {}) as Record<string, unknown>;
  assertValid([
    ...Object.keys(unknown).map((k) => detail(k, 'unrecognized_keys', `Unrecognized key: '${k}'`)),
    ...validateSegmentName(name),
    ...validateSegmentFilters(filters),
  ]);
  for (const s of ctx.org.segments.values()) {
    if (s.name === name)
      throw conflict(
        'resource_conflict',
        `A segment named '${String(name)}' already exists in this organization`,
      );
  }
  const now = ctx.now().toISOString();
  const segment: Segment = {
    id: randomUUID(),
    name: name as string,
    filters: filters as SegmentFilters,
    createdAt: now,
    updatedAt: now,
  };
  ctx.org.segments.set(segment.id, segment);
  return structuredClone(segment);
}

export function listSegments(ctx: OpContext): { data: Segment[] } {
  return { data: [...ctx.org.segments.values()].map((s) => structuredClone(s)) };
}
