// A segment's membership judged on one contact as it is read (the CRM's contact the engine fetched
// for a run, a rule test's contact, a forecast's mirrored contact), without the CRM's directory:
// a tag named in `tagIds` is the contact's own tag of that name (a contact without it is not in a
// segment that asks for it), stages and members are given by uuid (the contact carries ids only).
// Rule tests' segment rules and the messaging policy's segment suppressions (`suppress: - segment:`)
// ask it, so the engine's gate, rule tests, forecast and diff judge membership alike. Pure.
import type { Contact } from '@crm-rules/crm-contract';
import { isUuid } from '@crm-rules/crm-contract';
import { toMirroredContact } from '../crm-terms/mirrored-contact';
import { resolveRelativeDates, type RuleSegmentFilters } from './resolved-filters';
import { SegmentFilterError } from './segment-filter-error';
import { segmentPredicate } from './segment-filter';

/** Matches no tag: a contact without a tag of that name is not in a segment that asks for it. */
const NO_SUCH_TAG = '00000000-0000-4000-8000-000000000000';

/** A member of `stageIds` / `assigneeIds` written as a name (not a uuid), if any. */
export function namedStageOrMember(filters: RuleSegmentFilters): string | undefined {
  for (const member of ['stageIds', 'assigneeIds'] as const) {
    const name = (filters[member] as unknown[] | undefined)?.find((v) => !isUuid(v));
    if (name !== undefined) return `${member}: "${String(name)}"`;
  }
  return undefined;
}

/** The filters with each tag name of `tagIds` turned into the contact's tag id of that name. */
export function tagNamesFromContact(
  filters: RuleSegmentFilters,
  contact: Record<string, unknown> | undefined,
): RuleSegmentFilters {
  const tags = ((contact as { tags?: { id: string; name: string }[] } | undefined)?.tags ?? []).filter(
    (t) => typeof t?.name === 'string',
  );
  const out: RuleSegmentFilters = { ...filters };
  if (Array.isArray(filters.tagIds))
    out.tagIds = filters.tagIds.map((v) =>
      isUuid(v) ? v : (tags.find((t) => t.name.toLowerCase() === String(v).toLowerCase())?.id ?? NO_SUCH_TAG),
    );
  const named = namedStageOrMember(filters);
  if (named)
    throw new SegmentFilterError(
      `${named} is a name; without the CRM's directory tags are known by name (the contact's), stages and members by uuid`,
    );
  return out;
}

/**
 * Whether the contact is in the segment at `now` (relative dates resolved at `now`). A contact the
 * mirror could not keep (no creation date) is in no segment.
 */
export function contactInSegment(
  filters: RuleSegmentFilters,
  contact: Record<string, unknown> | undefined,
  now: Date,
): boolean {
  if (!contact) return false;
  let mirrored;
  try {
    mirrored = toMirroredContact(contact as unknown as Contact);
  } catch {
    return false;
  }
  return segmentPredicate(resolveRelativeDates(tagNamesFromContact(filters, contact), now))(mirrored);
}
