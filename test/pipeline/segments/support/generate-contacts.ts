// Seeded random contacts and segment filters for property tests and benchmarks.
import type { Contact, SegmentFilters } from '@crm-rules/crm-contract';
import { SOURCE_METHODS } from '@crm-rules/crm-contract';
import { DEMO } from '../../../support/demo-fixture';

export const TAGS: string[] = Object.values(DEMO.tags);
export const STAGES: string[] = Object.values(DEMO.stages);
export const MEMBERS: string[] = Object.values(DEMO.members);
const PHONES = [
  '5511',
  '5521',
  '351912',
  '351213',
  '1415',
  '1613',
  '4479',
  '4915',
  '3361',
  '8190',
  '999',
  '12',
];
const SOURCES = SOURCE_METHODS.slice(0, 6);
const CUSTOM = ['opt-a', 'opt-b', 'opt-c'];
const START = Date.parse('2024-01-01T00:00:00Z');
const SPAN = 540 * 86400e3;

/** mulberry32: small, fast, good enough for test data; the seed makes failures reproducible. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rnd: () => number, items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
const some = <T>(rnd: () => number, items: readonly T[], max = items.length): T[] =>
  items.filter(() => rnd() < Math.min(1, max / items.length / 1.5)).slice(0, max);
const maybe = <T>(rnd: () => number, p: number, value: () => T): T | null => (rnd() < p ? value() : null);

/** Timestamps on a coarse grid, so filters often hit a contact's exact instant (boundary cases). */
export function gridDate(rnd: () => number): string {
  return new Date(START + Math.floor(rnd() * 400) * (SPAN / 400)).toISOString();
}

export function generateContact(rnd: () => number, i: number): Contact {
  const tagIds = some(rnd, TAGS, 3);
  const phonePrefix = pick(rnd, PHONES);
  const phone =
    phonePrefix +
    String(Math.floor(rnd() * 1e9))
      .padStart(9, '0')
      .slice(0, Math.max(2, 11 - phonePrefix.length));
  const customFields: Record<string, unknown> = {};
  if (rnd() < 0.6) customFields.plan = pick(rnd, CUSTOM);
  if (rnd() < 0.5) customFields.interests = some(rnd, CUSTOM);
  if (rnd() < 0.1) customFields.score = Math.floor(rnd() * 5);
  if (rnd() < 0.1) customFields.plan = [pick(rnd, CUSTOM), 7];
  return {
    id: `c${String(i).padStart(7, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Contact ${i}`,
    phone,
    email: maybe(rnd, 0.7, () => `c${i}@example.com`),
    avatar: null,
    notes: null,
    status: rnd() < 0.8 ? 'active' : 'archived',
    isBlocked: rnd() < 0.15,
    sourceMethod: pick(rnd, SOURCES),
    assigneeId: maybe(rnd, 0.7, () => pick(rnd, MEMBERS)),
    stageId: maybe(rnd, 0.8, () => pick(rnd, STAGES)),
    tags: tagIds.map((id) => ({ id, name: `tag-${id.slice(-1)}`, color: '#000' })),
    customFields,
    createdAt: gridDate(rnd),
    updatedAt: gridDate(rnd),
    lastInteractionAt: maybe(rnd, 0.75, () => gridDate(rnd)),
  };
}

type FilterPart = (rnd: () => number) => SegmentFilters;

const PARTS: FilterPart[] = [
  (r) => ({ tagIds: some(r, TAGS, 3) }),
  (r) => ({ stageIds: some(r, STAGES, 2) }),
  (r) => ({ assigneeIds: some(r, MEMBERS, 2), includeUnassigned: r() < 0.5 }),
  (r) => ({ includeUnassigned: r() < 0.5 }),
  (r) => ({ createdAfter: gridDate(r) }),
  (r) => ({ createdBefore: gridDate(r) }),
  (r) => ({ lastUpdatedAfter: gridDate(r), lastUpdatedBefore: gridDate(r) }),
  (r) => ({ lastInteractionAfter: gridDate(r) }),
  (r) => ({ lastInteractionBefore: gridDate(r) }),
  (r) => ({
    phoneFilters: [
      { countryCode: pick(r, ['55', '+351', '1', 'GB', 'DE']), prefix: pick(r, ['', '1', '9', '41', '61']) },
    ],
  }),
  (r) => ({ sourceMethods: some(r, SOURCES, 3) as SegmentFilters['sourceMethods'] }),
  (r) => ({ status: r() < 0.5 ? 'active' : 'archived' }),
  (r) => ({ isBlocked: r() < 0.5 }),
  (r) => ({ countries: some(r, ['BR', 'PT', 'US', 'CA', 'GB', 'DE', 'FR', 'JP'], 3) }),
  (r) => ({
    customFieldFilters: [
      {
        fieldKey: pick(r, ['plan', 'interests', 'score', 'none']),
        values: some(r, [...CUSTOM, '3'], 2).concat('opt-a'),
      },
    ],
  }),
];

/** One to `maxMembers` random members (later parts overwrite earlier ones of the same name). */
export function generateFilters(rnd: () => number, maxMembers = 5): SegmentFilters {
  const n = 1 + Math.floor(rnd() * maxMembers);
  return Object.assign({}, ...Array.from({ length: n }, () => pick(rnd, PARTS)(rnd)));
}
