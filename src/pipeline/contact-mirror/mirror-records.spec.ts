import type { Contact } from '@crm-rules/crm-contract';
import { newestRecords } from './mirror-records';

const contact = (id: string, name: string, updatedAt: string): Contact =>
  ({
    id,
    name,
    phone: '351910000001',
    status: 'open',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt,
  }) as unknown as Contact;

const T1 = '2026-02-01T00:00:01.000Z';
const T2 = '2026-02-01T00:00:02.000Z';

describe('newestRecords (the contacts of a batch of events, one row each)', () => {
  it.each([
    {
      name: 'the newer wins when it comes first',
      in: [
        ['a', 'new', T2],
        ['a', 'old', T1],
      ],
      out: [['a', 'new']],
    },
    {
      name: 'the newer wins when it comes last',
      in: [
        ['a', 'old', T1],
        ['a', 'new', T2],
      ],
      out: [['a', 'new']],
    },
    {
      name: 'a tie: the later one, as two statements would',
      in: [
        ['a', 'x', T1],
        ['a', 'y', T1],
      ],
      out: [['a', 'y']],
    },
    {
      name: 'other contacts untouched, sorted by id',
      in: [
        ['c', 'c', T1],
        ['a', 'a', T1],
        ['b', 'b', T2],
      ],
      out: [
        ['a', 'a'],
        ['b', 'b'],
        ['c', 'c'],
      ],
    },
    {
      name: 'an offset in the date counts as its instant',
      in: [
        ['a', 'utc', '2026-02-01T01:30:00Z'],
        ['a', 'later', '2026-02-01T02:00:00+01:00'],
      ],
      out: [['a', 'utc']],
    },
    { name: 'empty', in: [], out: [] },
  ])('$name', ({ in: given, out }) => {
    const records = newestRecords(given.map(([id, name, at]) => contact(id, name, at)));
    expect(records.map((r) => [r.id, r.name])).toEqual(out);
  });
});
