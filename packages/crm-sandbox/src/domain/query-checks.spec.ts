import { conversationPage, mediaPage, pageWithTotals } from './paging';
import { pageRequest, pagingSpec, parseQuery } from './query-checks';
import { SandboxError } from './sandbox-error';

const spec = {
  ...pagingSpec(100),
  flag: { kind: 'bool' },
  status: { kind: 'enum', values: ['active', 'archived'] },
  tagIds: { kind: 'uuid[]' },
  q: { kind: 'string', max: 3 },
} as const;
const UUID = '7a000000-0000-4000-8000-000000000001';

function details(query: Record<string, unknown>) {
  try {
    parseQuery(query, spec);
  } catch (err) {
    return (err as SandboxError).details?.map((d) => `${d.param}:${d.code}`);
  }
  return [];
}

describe('parseQuery', () => {
  it('converts integers, booleans, enums and repeated uuids', () => {
    expect(
      parseQuery({ page: '2', limit: '100', flag: 'false', status: 'active', tagIds: [UUID, UUID] }, spec),
    ).toEqual({
      page: 2,
      limit: 100,
      flag: false,
      status: 'active',
      tagIds: [UUID, UUID],
    });
    expect(parseQuery({ tagIds: UUID }, spec)).toEqual({ tagIds: [UUID] });
  });

  it('lists every bad parameter', () => {
    expect(
      details({ page: '0', limit: '101', flag: '1', status: 'gone', tagIds: ['x'], q: 'long', extra: 'y' }),
    ).toEqual([
      'page:too_small',
      'limit:too_big',
      'flag:invalid_type',
      'status:invalid_enum_value',
      'tagIds[0]:invalid_string',
      'q:too_big',
      'extra:unrecognized_keys',
    ]);
  });

  it('refuses a repeated scalar and a non-integer page', () => {
    expect(details({ page: ['1', '2'] })).toEqual(['page:invalid_type']);
    expect(details({ page: '1.5' })).toEqual(['page:invalid_type']);
  });

  it('reports required parameters', () => {
    expect(() => parseQuery({}, spec, ['q'])).toThrow(SandboxError);
  });

  it('defaults to page 1 of 20', () => {
    expect(pageRequest({})).toEqual({ page: 1, limit: 20 });
  });
});

describe('envelopes', () => {
  const items = Array.from({ length: 7 }, (_, i) => i);
  it('pages with totals', () => {
    expect(pageWithTotals(items, { page: 2, limit: 3 })).toEqual({
      data: [3, 4, 5],
      page: 2,
      limit: 3,
      total: 7,
      totalPages: 3,
      hasNext: true,
      hasPrev: true,
    });
    expect(pageWithTotals([], { page: 1, limit: 3 })).toEqual({
      data: [],
      page: 1,
      limit: 3,
      total: 0,
      totalPages: 0,
      hasNext: false,
      hasPrev: false,
    });
  });
  it('pages media with a total and conversations without', () => {
    expect(mediaPage(items, { page: 3, limit: 3 })).toEqual({
      data: [6],
      page: 3,
      limit: 3,
      total: 7,
      hasNext: false,
    });
    expect(conversationPage(items, { page: 1, limit: 7 })).toEqual({
      data: items,
      page: 1,
      limit: 7,
      hasNext: false,
    });
  });
});
