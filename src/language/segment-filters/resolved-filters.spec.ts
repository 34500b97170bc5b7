import {
  resolveFilterNames,
  resolveRelativeDates,
  toCrmFilters,
  type NameDirectory,
} from './resolved-filters';
import { SegmentFilterError } from './segment-filter-error';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const VIP = '7a000000-0000-4000-8000-000000000002';

describe('resolveRelativeDates', () => {
  it('resolves now-30d, now+2h and now against the sweep instant', () => {
    const r = resolveRelativeDates(
      { lastInteractionBefore: 'now-30d', createdBefore: 'now+2h', lastUpdatedAfter: 'now' },
      NOW,
    );
    expect(r.lastInteractionBefore?.toISOString()).toBe('2025-05-16T12:00:00.000Z');
    expect(r.createdBefore?.toISOString()).toBe('2025-06-15T14:00:00.000Z');
    expect(r.lastUpdatedAfter?.toISOString()).toBe(NOW.toISOString());
  });

  it('keeps absolute dates, offsets included', () => {
    expect(
      resolveRelativeDates({ createdAfter: '2025-01-01T03:00:00+03:00' }, NOW).createdAfter?.toISOString(),
    ).toBe('2025-01-01T00:00:00.000Z');
  });

  it('drops members that constrain nothing', () => {
    expect(resolveRelativeDates({ tagIds: [], countries: [], channelIds: [], adIds: [] }, NOW)).toEqual({});
  });

  it('normalises uuids to lower case, countries to upper case, and removes duplicates', () => {
    const r = resolveRelativeDates(
      { tagIds: [VIP.toUpperCase(), VIP], countries: ['br', 'BR', ' pt '] },
      NOW,
    );
    expect(r).toEqual({ tagIds: [VIP], countries: ['BR', 'PT'] });
  });

  it('turns phone filters into the digits a phone must start with', () => {
    const r = resolveRelativeDates(
      {
        phoneFilters: [
          { countryCode: '+351', prefix: '91' },
          { countryCode: 'US', prefix: '' },
        ],
      },
      NOW,
    );
    expect(r.phoneFilters?.map((p) => p.digits)).toEqual(['35191', '1']);
  });

  it.each([
    [{ hasConversations: true }, /hasConversations: cannot be evaluated by the engine/],
    [{ hasConversations: false }, /hasConversations/],
    [{ channelIds: [VIP] }, /channelIds: cannot be evaluated.*channels/],
    [{ broadcastIds: [VIP] }, /broadcastIds/],
    [{ adIds: ['ad-1'] }, /adIds/],
    [{ favouriteColour: 'red' }, /favouriteColour: not a segment filter member/],
    [{ tagIds: ['vip'] }, /tagIds: "vip" is not a uuid/],
    [{ createdAfter: 'yesterday' }, /createdAfter: "yesterday" is neither/],
    [{ phoneFilters: [{ countryCode: 'Brazil', prefix: '11' }] }, /countryCode "Brazil"/],
    [{ phoneFilters: [{ countryCode: '55', prefix: '1-1' }] }, /prefix: digits only/],
    [{ customFieldFilters: [{ fieldKey: 'plan', values: [] }] }, /at least one value/],
    [{ status: 'deleted' }, /status: expected active or archived/],
  ])('refuses %j with the reason', (filters, message) => {
    expect(() => resolveRelativeDates(filters as never, NOW)).toThrow(SegmentFilterError);
    expect(() => resolveRelativeDates(filters as never, NOW)).toThrow(message);
  });
});

describe('resolveFilterNames', () => {
  const directory: NameDirectory = {
    resolveTag: async (n) => ({ id: n === 'vip' ? VIP : 'unknown' }),
    resolveStage: async () => ({ id: '5a000000-0000-4000-8000-000000000001' }),
    resolveMember: async () => {
      throw Object.assign(new Error('no member "zed"'), { name: 'UnknownNameError' });
    },
  };

  it('resolves tag and stage names and leaves uuids alone', async () => {
    const r = await resolveFilterNames(
      { tagIds: ['vip', VIP], stageIds: ['New lead'], status: 'active' },
      directory,
    );
    expect(r).toEqual({
      tagIds: [VIP, VIP],
      stageIds: ['5a000000-0000-4000-8000-000000000001'],
      status: 'active',
    });
  });

  it('lets an unknown name fail the resolution', async () => {
    await expect(resolveFilterNames({ assigneeIds: ['zed'] }, directory)).rejects.toThrow('no member "zed"');
  });
});

describe('toCrmFilters', () => {
  it('gives back the docs/CRM-API.md §2.4 shape with absolute dates', () => {
    const resolved = resolveRelativeDates(
      {
        lastInteractionBefore: 'now-1d',
        phoneFilters: [{ countryCode: 'BR', prefix: '11' }],
        isBlocked: false,
      },
      NOW,
    );
    expect(toCrmFilters(resolved)).toEqual({
      lastInteractionBefore: '2025-06-14T12:00:00.000Z',
      phoneFilters: [{ countryCode: 'BR', prefix: '11' }],
      isBlocked: false,
    });
  });
});
