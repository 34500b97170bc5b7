// `- create-segment: { name, filters }` -> POST /v1/segments (docs/CRM-API.md §4.1); a 409 means it
// exists, which the runner records as success (`already_exists`).
import { CrmApiError } from '../crm-terms/crm-errors';
import type { SegmentFilters } from '@crm-rules/crm-contract';
import { isPlainObject } from '../rules/format/problem-collector';
import { segmentFilterNames } from '../rules/format/segment-filter-names';
import { resolveFilterNames, type RuleSegmentFilters } from '../segment-filters/resolved-filters';
import { checkSegmentFilters, checkSegmentName } from '../rules/format/segment-problems';
import { PROCEED, quoted, type ActionDefinition } from './action-definition';

export type CreateSegmentAction = { type: 'create-segment'; name: string; filters: SegmentFilters };
export type ResolvedCreateSegment = CreateSegmentAction;

export const createSegmentAction: ActionDefinition<CreateSegmentAction, ResolvedCreateSegment> = {
  type: 'create-segment',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'filters'],
    description: "Create a segment in the CRM (409 'already exists' is not a failure).",
    properties: {
      name: { description: 'Segment name, 1 to 30 characters, unique in the organization.' },
      filters: {
        $ref: '#/definitions/crmSegmentFilters',
        description:
          "The segment's filters (docs/CRM-API.md §2.4), sent to the CRM as written, tags, stages and members named by name or uuid.",
      },
    },
  },
  needsContact: false,
  repeat: 'state-checked',
  parse(value, path, ctx) {
    if (!isPlainObject(value)) return undefined;
    const before = ctx.errorCount();
    // A missing name or filters is a schema problem, reported there; what is present is checked.
    if (value.name !== undefined) checkSegmentName(value.name, [...path, 'name'], ctx);
    // Sent to the CRM as written (names resolved to uuids): ISO dates only, every member of 2.4 allowed.
    if (value.filters !== undefined) checkSegmentFilters(value.filters, [...path, 'filters'], ctx, false);
    if (ctx.errorCount() > before || value.name === undefined || value.filters === undefined)
      return undefined;
    return { name: value.name as string, filters: value.filters as SegmentFilters };
  },
  label: (a) => `create-segment ${quoted(a.name)}`,
  names: (a) =>
    segmentFilterNames(a.filters as Record<string, unknown>).map((u) => ({
      ...u,
      path: ['filters', ...u.path],
    })),
  effect: { emits: () => [] },
  // The CRM takes uuids: tags, stages and members named in the rule are looked up first.
  resolve: async (a, env) => ({
    type: 'create-segment',
    name: a.name,
    filters: (await resolveFilterNames(a.filters as RuleSegmentFilters, env.directory)) as SegmentFilters,
  }),
  guard: () => PROCEED, // a 409 (it exists) is success, decided by the runner, not a guard
  apply: (_r, contact) => contact,
  execute: async (r, env) => {
    await env.gateway.createSegment({ name: r.name, filters: r.filters }, env.opts);
    return undefined;
  },
  alreadyDone: (err) =>
    err instanceof CrmApiError && err.code === 'resource_conflict' ? 'already_exists' : undefined,
};
