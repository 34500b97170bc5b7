// Which contacts each segment filter keeps, table-driven, for the traced matcher and the untraced
// predicate alike (they must agree), and what the trace records.
import type { MirroredContact } from '../crm-terms/mirrored-contact';
import type { RuleSegmentFilters } from './resolved-filters';
import { matchesSegment, segmentPredicate } from './segment-filter';
import {
  ANA,
  BEN,
  CUSTOMER,
  DORMANT,
  LEAD,
  NEW_LEAD,
  NOW,
  VIP,
  contact,
  f,
} from './segment-filter.spec-support';

// [description, filters, contact overrides, expected]
const cases: [string, RuleSegmentFilters, Partial<MirroredContact>, boolean][] = [
  ['no filters: everyone', {}, {}, true],
  [
    'empty arrays constrain nothing',
    { tagIds: [], stageIds: [], assigneeIds: [], sourceMethods: [], countries: [] },
    {},
    true,
  ],
  [
    'includeUnassigned false alone constrains nothing',
    { includeUnassigned: false },
    { assigneeId: null },
    true,
  ],

  ['tagIds: has the only listed tag', { tagIds: [VIP] }, {}, true],
  ['tagIds: any of the listed tags is enough', { tagIds: [DORMANT, VIP] }, {}, true],
  ['tagIds: none of the listed tags', { tagIds: [DORMANT, LEAD] }, {}, false],
  ['tagIds: a contact without tags', { tagIds: [VIP] }, { tagIds: [], tags: [] }, false],
  ['tagIds: upper-case uuids in the filter match', { tagIds: [VIP.toUpperCase()] }, {}, true],

  ['stageIds: on a listed stage', { stageIds: [CUSTOMER, NEW_LEAD] }, {}, true],
  ['stageIds: on another stage', { stageIds: [CUSTOMER] }, {}, false],
  ['stageIds: no stage', { stageIds: [NEW_LEAD] }, { stageId: null }, false],

  ['assigneeIds: assigned to a listed member', { assigneeIds: [ANA, BEN] }, {}, true],
  ['assigneeIds: assigned to someone else', { assigneeIds: [BEN] }, {}, false],
  ['assigneeIds: unassigned without includeUnassigned', { assigneeIds: [ANA] }, { assigneeId: null }, false],
  [
    'assigneeIds + includeUnassigned: unassigned matches',
    { assigneeIds: [BEN], includeUnassigned: true },
    { assigneeId: null },
    true,
  ],
  [
    'assigneeIds + includeUnassigned: listed member matches',
    { assigneeIds: [ANA], includeUnassigned: true },
    {},
    true,
  ],
  [
    'assigneeIds + includeUnassigned: other member does not',
    { assigneeIds: [BEN], includeUnassigned: true },
    {},
    false,
  ],
  ['includeUnassigned alone: only unassigned', { includeUnassigned: true }, { assigneeId: null }, true],
  ['includeUnassigned alone: an assigned contact is out', { includeUnassigned: true }, {}, false],

  ['createdAfter is inclusive', { createdAfter: '2025-01-10T00:00:00Z' }, {}, true],
  ['createdAfter: created before the bound', { createdAfter: '2025-01-10T00:00:00.001Z' }, {}, false],
  ['createdBefore is exclusive', { createdBefore: '2025-01-10T00:00:00Z' }, {}, false],
  ['createdBefore: created earlier', { createdBefore: '2025-01-10T00:00:00.001Z' }, {}, true],
  [
    'created range: inside',
    { createdAfter: '2025-01-01T00:00:00Z', createdBefore: '2025-02-01T00:00:00Z' },
    {},
    true,
  ],
  [
    'created range: outside',
    { createdAfter: '2025-02-01T00:00:00Z', createdBefore: '2025-03-01T00:00:00Z' },
    {},
    false,
  ],
  ['created range with an offset', { createdAfter: '2025-01-10T02:00:00+02:00' }, {}, true],
  ['lastUpdatedAfter: updated since', { lastUpdatedAfter: '2025-05-31T00:00:00Z' }, {}, true],
  ['lastUpdatedBefore: updated since', { lastUpdatedBefore: '2025-05-31T00:00:00Z' }, {}, false],
  ['lastInteractionBefore now-30d: silent 45 days', { lastInteractionBefore: 'now-30d' }, {}, true],
  [
    'lastInteractionBefore now-30d: talked 10 days ago',
    { lastInteractionBefore: 'now-30d' },
    { lastInteractionAt: new Date('2025-06-05T12:00:00Z') },
    false,
  ],
  [
    'lastInteractionAfter now-7d: talked 1 day ago',
    { lastInteractionAfter: 'now-7d' },
    { lastInteractionAt: new Date('2025-06-14T12:00:00Z') },
    true,
  ],
  [
    'lastInteraction bound: never interacted never matches Before',
    { lastInteractionBefore: 'now' },
    { lastInteractionAt: null },
    false,
  ],
  [
    'lastInteraction bound: never interacted never matches After',
    { lastInteractionAfter: '2000-01-01T00:00:00Z' },
    { lastInteractionAt: null },
    false,
  ],
  [
    'relative: now-2w as createdAfter',
    { createdAfter: 'now-2w' },
    { createdAt: new Date('2025-06-10T00:00:00Z') },
    true,
  ],
  [
    'relative: now+1h as createdBefore',
    { createdBefore: 'now+1h' },
    { createdAt: new Date('2025-06-15T12:59:59Z') },
    true,
  ],

  [
    'phoneFilters: country code and prefix',
    { phoneFilters: [{ countryCode: '55', prefix: '11' }] },
    {},
    true,
  ],
  [
    'phoneFilters: "+55" is the same code',
    { phoneFilters: [{ countryCode: '+55', prefix: '119' }] },
    {},
    true,
  ],
  [
    'phoneFilters: ISO country BR means +55',
    { phoneFilters: [{ countryCode: 'BR', prefix: '11' }] },
    {},
    true,
  ],
  ['phoneFilters: other prefix', { phoneFilters: [{ countryCode: '55', prefix: '21' }] }, {}, false],
  [
    'phoneFilters: empty prefix = whole country',
    { phoneFilters: [{ countryCode: '55', prefix: '' }] },
    {},
    true,
  ],
  [
    'phoneFilters: any item matches',
    {
      phoneFilters: [
        { countryCode: '1', prefix: '' },
        { countryCode: '55', prefix: '11' },
      ],
    },
    {},
    true,
  ],
  [
    'phoneFilters: prefix is not a substring match',
    { phoneFilters: [{ countryCode: '98', prefix: '76' }] },
    {},
    false,
  ],

  ['sourceMethods: listed', { sourceMethods: ['IMPORT', 'MANUAL'] }, {}, true],
  ['sourceMethods: not listed', { sourceMethods: ['MSG_API_AD'] }, {}, false],
  ['status active', { status: 'active' }, {}, true],
  ['status archived vs active contact', { status: 'archived' }, {}, false],
  ['status archived', { status: 'archived' }, { status: 'archived' }, true],
  ['isBlocked false', { isBlocked: false }, {}, true],
  ['isBlocked true vs unblocked contact', { isBlocked: true }, {}, false],
  ['isBlocked true', { isBlocked: true }, { isBlocked: true }, true],

  ['countries: derived country listed', { countries: ['PT', 'BR'] }, {}, true],
  ['countries: lower-case code', { countries: ['br'] }, {}, true],
  ['countries: not listed', { countries: ['US'] }, {}, false],
  ['countries: no derivable country', { countries: ['BR'] }, { country: null }, false],

  [
    'customFieldFilters: single value field',
    { customFieldFilters: [{ fieldKey: 'plan', values: ['opt-pro', 'opt-ent'] }] },
    {},
    true,
  ],
  [
    'customFieldFilters: other value',
    { customFieldFilters: [{ fieldKey: 'plan', values: ['opt-free'] }] },
    {},
    false,
  ],
  [
    'customFieldFilters: array field, any element',
    { customFieldFilters: [{ fieldKey: 'interests', values: ['opt-b'] }] },
    {},
    true,
  ],
  [
    'customFieldFilters: array field, no element',
    { customFieldFilters: [{ fieldKey: 'interests', values: ['opt-z'] }] },
    {},
    false,
  ],
  [
    'customFieldFilters: missing field',
    { customFieldFilters: [{ fieldKey: 'website', values: ['x'] }] },
    {},
    false,
  ],
  [
    'customFieldFilters: exact, case-sensitive',
    { customFieldFilters: [{ fieldKey: 'company', values: ['acme'] }] },
    {},
    false,
  ],
  [
    'customFieldFilters: every item must hold',
    {
      customFieldFilters: [
        { fieldKey: 'plan', values: ['opt-pro'] },
        { fieldKey: 'company', values: ['Other'] },
      ],
    },
    {},
    false,
  ],
  [
    'customFieldFilters: non-string values never match',
    { customFieldFilters: [{ fieldKey: 'score', values: ['3'] }] },
    { customFields: { score: 3 } },
    false,
  ],

  [
    'combination: dormant active unblocked',
    { lastInteractionBefore: 'now-30d', status: 'active', isBlocked: false },
    {},
    true,
  ],
  [
    'combination: one member fails, all fail',
    { lastInteractionBefore: 'now-30d', status: 'active', isBlocked: true },
    {},
    false,
  ],
  [
    'combination: five members',
    {
      tagIds: [VIP],
      stageIds: [NEW_LEAD],
      countries: ['BR'],
      sourceMethods: ['MANUAL'],
      createdAfter: 'now-365d',
    },
    {},
    true,
  ],
  [
    'combination: five members, stage off',
    {
      tagIds: [VIP],
      stageIds: [CUSTOMER],
      countries: ['BR'],
      sourceMethods: ['MANUAL'],
      createdAfter: 'now-365d',
    },
    {},
    false,
  ],
  ['unsupported member with an empty array is no constraint', { channelIds: [] }, {}, true],
];

describe('matchesSegment', () => {
  it.each(cases)('%s', (_name, filters, over, expected) => {
    expect(matchesSegment(f(filters), contact(over), NOW).matched).toBe(expected);
  });

  it.each(cases)('the untraced predicate agrees: %s', (_name, filters, over, expected) => {
    expect(segmentPredicate(f(filters))(contact(over))).toBe(expected);
  });
});
