import {
  isIsoDateTime,
  resolveFilterDate,
  SEGMENT_FILTER_MEMBERS,
  validateSegmentFilters,
  validateSegmentName,
} from './segment-filter-constraints';

const UUID = '7a000000-0000-4000-8000-000000000001';
const DATE = '2024-05-01T10:00:00Z';

describe('validateSegmentFilters', () => {
  it('accepts an empty filters object', () => {
    expect(validateSegmentFilters({})).toEqual([]);
  });

  it('accepts every member of docs/CRM-API.md §2.4 with valid values', () => {
    const filters = {
      tagIds: [UUID],
      stageIds: [UUID],
      assigneeIds: [UUID],
      includeUnassigned: true,
      channelIds: [UUID],
      createdAfter: DATE,
      createdBefore: '2024-05-01T10:00:00.123+02:00',
      lastUpdatedAfter: '2024-05-01T10:00Z',
      lastUpdatedBefore: DATE,
      lastInteractionAfter: DATE,
      lastInteractionBefore: DATE,
      phoneFilters: [
        { countryCode: '55', prefix: '' },
        { countryCode: '12345', prefix: '1234567890' },
      ],
      adIds: ['a'],
      campaignIds: ['c'],
      adSetIds: ['s'],
      adUrls: ['https://x.test'],
      hasConversations: false,
      sourceMethods: ['MANUAL', 'IMPORT', 'MSG_API_AD'],
      status: 'archived',
      broadcastIds: [UUID],
      isBlocked: false,
      countries: ['BR'],
      customFieldFilters: [{ fieldKey: 'plan', values: ['gold'] }],
    };
    expect(Object.keys(filters).sort()).toEqual([...SEGMENT_FILTER_MEMBERS].sort());
    expect(validateSegmentFilters(filters)).toEqual([]);
  });

  it.each<[string, unknown, string, string]>([
    ['unknown member', { colour: 'red' }, 'filters.colour', 'unrecognized_keys'],
    ['uuid array holding a non-uuid', { tagIds: [UUID, 'vip'] }, 'filters.tagIds[1]', 'invalid_string'],
    ['uuid array given as a string', { stageIds: UUID }, 'filters.stageIds', 'invalid_type'],
    ['non-uuid assignee', { assigneeIds: [42] }, 'filters.assigneeIds[0]', 'invalid_type'],
    ['boolean given as a string', { includeUnassigned: 'true' }, 'filters.includeUnassigned', 'invalid_type'],
    ['channel id not a uuid', { channelIds: ['main'] }, 'filters.channelIds[0]', 'invalid_string'],
    [
      'date without offset',
      { createdAfter: '2024-05-01T10:00:00' },
      'filters.createdAfter',
      'invalid_string',
    ],
    ['impossible date', { createdBefore: '2024-02-30T10:00:00Z' }, 'filters.createdBefore', 'invalid_string'],
    ['date as number', { lastUpdatedAfter: 1714557600000 }, 'filters.lastUpdatedAfter', 'invalid_type'],
    [
      'relative date when not allowed',
      { lastInteractionBefore: 'now-30d' },
      'filters.lastInteractionBefore',
      'invalid_string',
    ],
    [
      'six phone filters',
      { phoneFilters: Array(6).fill({ countryCode: '1', prefix: '2' }) },
      'filters.phoneFilters',
      'too_big',
    ],
    [
      'country code of 6 chars',
      { phoneFilters: [{ countryCode: '123456', prefix: '1' }] },
      'filters.phoneFilters[0].countryCode',
      'too_big',
    ],
    [
      'prefix with a letter',
      { phoneFilters: [{ countryCode: '1', prefix: '12a' }] },
      'filters.phoneFilters[0].prefix',
      'invalid_string',
    ],
    [
      'prefix of 11 digits',
      { phoneFilters: [{ countryCode: '1', prefix: '12345678901' }] },
      'filters.phoneFilters[0].prefix',
      'too_big',
    ],
    [
      'phone filter without prefix',
      { phoneFilters: [{ countryCode: '1' }] },
      'filters.phoneFilters[0].prefix',
      'invalid_type',
    ],
    [
      'phone filter with extra key',
      { phoneFilters: [{ countryCode: '1', prefix: '', x: 1 }] },
      'filters.phoneFilters[0].x',
      'unrecognized_keys',
    ],
    ['empty ad id', { adIds: [''] }, 'filters.adIds[0]', 'too_small'],
    ['empty campaign id', { campaignIds: ['ok', ''] }, 'filters.campaignIds[1]', 'too_small'],
    ['empty ad set id', { adSetIds: [''] }, 'filters.adSetIds[0]', 'too_small'],
    ['empty ad url', { adUrls: [''] }, 'filters.adUrls[0]', 'too_small'],
    ['hasConversations as number', { hasConversations: 1 }, 'filters.hasConversations', 'invalid_type'],
    ['unknown source method', { sourceMethods: ['EMAIL'] }, 'filters.sourceMethods[0]', 'invalid_enum_value'],
    ['unknown status', { status: 'deleted' }, 'filters.status', 'invalid_enum_value'],
    ['broadcast id not a uuid', { broadcastIds: ['b1'] }, 'filters.broadcastIds[0]', 'invalid_string'],
    ['isBlocked null', { isBlocked: null }, 'filters.isBlocked', 'invalid_type'],
    ['empty country', { countries: [''] }, 'filters.countries[0]', 'too_small'],
    [
      'custom field filter with empty key',
      { customFieldFilters: [{ fieldKey: '', values: ['a'] }] },
      'filters.customFieldFilters[0].fieldKey',
      'too_small',
    ],
    [
      'custom field filter with no values',
      { customFieldFilters: [{ fieldKey: 'k', values: [] }] },
      'filters.customFieldFilters[0].values',
      'too_small',
    ],
    [
      'custom field filter without values',
      { customFieldFilters: [{ fieldKey: 'k' }] },
      'filters.customFieldFilters[0].values',
      'invalid_type',
    ],
  ])('rejects %s', (_name, filters, param, code) => {
    const details = validateSegmentFilters(filters);
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ param, code });
    expect(details[0].message).toEqual(expect.any(String));
  });

  it.each([null, [], 'x', 3])('rejects a filters value that is not an object (%p)', (value) => {
    expect(validateSegmentFilters(value)).toEqual([
      expect.objectContaining({ param: 'filters', code: 'invalid_type' }),
    ]);
  });

  it('reports a missing filters object as Required', () => {
    expect(validateSegmentFilters(undefined)).toEqual([
      { param: 'filters', code: 'invalid_type', message: 'Required' },
    ]);
  });

  it('lists every failing field, not only the first', () => {
    const details = validateSegmentFilters({
      tagIds: ['nope'],
      status: 'gone',
      phoneFilters: [{ countryCode: '1234567', prefix: 'abc' }],
      adIds: [''],
      unknown: true,
    });
    expect(details.map((d) => d.param).sort()).toEqual([
      'filters.adIds[0]',
      'filters.phoneFilters[0].countryCode',
      'filters.phoneFilters[0].prefix',
      'filters.status',
      'filters.tagIds[0]',
      'filters.unknown',
    ]);
  });

  it.each([
    [{ tagIds: ['vip', 'VIP customers'] }, {}, ['filters.tagIds[0]', 'filters.tagIds[1]']],
    [
      { tagIds: ['vip'], stageIds: ['Qualified'], assigneeIds: ['ana@demo.test', UUID] },
      { allowNames: true },
      [],
    ],
    [{ tagIds: [''] }, { allowNames: true }, ['filters.tagIds[0]']],
    [{ stageIds: [3] }, { allowNames: true }, ['filters.stageIds[0]']],
  ])('names in tagIds, stageIds, assigneeIds only with allowNames: %j %j', (filters, opts, params) => {
    expect(validateSegmentFilters(filters, opts).map((d) => d.param)).toEqual(params);
  });

  it('uses the configured param prefix', () => {
    expect(validateSegmentFilters({ isBlocked: 'no' }, { paramPrefix: 'on.segment.filters' })[0].param).toBe(
      'on.segment.filters.isBlocked',
    );
  });

  it.each(['now', 'now-30d', 'now+2h', 'now-15m', 'now-10s', 'now+1w'])(
    'accepts relative date %s when allowed',
    (v) => {
      expect(validateSegmentFilters({ createdAfter: v }, { allowRelativeDates: true })).toEqual([]);
    },
  );

  it.each(['now-30', 'now-d', 'now-30y', 'yesterday', 'now - 30d'])(
    'rejects malformed relative date %s',
    (v) => {
      expect(validateSegmentFilters({ createdAfter: v }, { allowRelativeDates: true })[0]).toMatchObject({
        code: 'invalid_string',
      });
    },
  );
});

describe('validateSegmentName', () => {
  it.each(['a', 'Dormant 30 days', 'x'.repeat(30), '🙂'.repeat(30)])('accepts %p', (name) => {
    expect(validateSegmentName(name)).toEqual([]);
  });

  it.each<[unknown, string]>([
    ['', 'too_small'],
    ['x'.repeat(31), 'too_big'],
    [undefined, 'invalid_type'],
    [12, 'invalid_type'],
  ])('rejects %p with %s', (name, code) => {
    expect(validateSegmentName(name)).toEqual([expect.objectContaining({ param: 'name', code })]);
  });

  it('names the given param', () => {
    expect(validateSegmentName('', 'on.segment.name')[0].param).toBe('on.segment.name');
  });
});

describe('date helpers', () => {
  const now = new Date('2024-05-31T00:00:00Z');
  it('resolves relative dates against now', () => {
    expect(resolveFilterDate('now-30d', now)?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(resolveFilterDate('now+2h', now)?.toISOString()).toBe('2024-05-31T02:00:00.000Z');
    expect(resolveFilterDate('now', now)?.getTime()).toBe(now.getTime());
    expect(resolveFilterDate(DATE, now)?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(resolveFilterDate('later', now)).toBeUndefined();
  });
  it('accepts leap days only in leap years', () => {
    expect(isIsoDateTime('2024-02-29T00:00:00Z')).toBe(true);
    expect(isIsoDateTime('2023-02-29T00:00:00Z')).toBe(false);
  });
});
