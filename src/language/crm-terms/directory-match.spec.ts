import { CachedList } from '../../outbound/crm-gateway/cached-list';
import type { Member } from '@crm-rules/crm-contract';
import {
  assignableMembers,
  findByNameOrId,
  memberLabels,
  roundRobinPick,
  UnknownNameError,
} from './directory-match';

const tags = [
  { id: 't1', name: 'vip' },
  { id: 't2', name: 'New lead' },
  { id: 't3', name: 'dup' },
  { id: 't4', name: 'DUP' },
];
const label = (t: { name: string }) => [t.name];

const member = (id: string, name: string, status = 'active'): Member => ({
  id,
  name,
  email: `${name.toLowerCase()}@demo.test`,
  avatar: null,
  phoneNumber: null,
  role: 'agent',
  jobTitle: null,
  status,
});

describe('findByNameOrId', () => {
  it.each([
    ['t2', 't2'],
    ['vip', 't1'],
    ['new lead', 't2'],
    ['  New Lead ', 't2'],
    ['dup', 't3'],
    ['DUP', 't4'],
  ])('finds %j as %s', (wanted, id) => {
    expect(findByNameOrId(tags, wanted, label)?.id).toBe(id);
  });

  it('refuses to guess between two names that differ only in case', () => {
    expect(findByNameOrId(tags, 'Dup', label)).toBeUndefined();
  });

  it('finds members by email or name', () => {
    const members = [member('m1', 'Ana'), member('m2', 'Ben')];
    expect(findByNameOrId(members, 'BEN@demo.test', memberLabels)?.id).toBe('m2');
    expect(findByNameOrId(members, 'ana', memberLabels)?.id).toBe('m1');
  });
});

describe('round robin', () => {
  it('rotates over active members in id order, whatever order the CRM lists them in', () => {
    const rotation = assignableMembers([
      member('m3', 'Cara'),
      member('m9', 'Dan', 'inactive'),
      member('m1', 'Ana'),
    ]);
    expect(rotation.map((m) => m.id)).toEqual(['m1', 'm3']);
    expect([1, 2, 3, 4].map((n) => roundRobinPick(rotation, n)?.id)).toEqual(['m1', 'm3', 'm1', 'm3']);
  });

  it('has no one to pick from an empty team', () => {
    expect(roundRobinPick([], 1)).toBeUndefined();
  });
});

describe('UnknownNameError', () => {
  it('names the kind, the name and what exists', () => {
    const err = new UnknownNameError('tag', 'vipp', ['vip', 'dormant']);
    expect(err).toMatchObject({ name: 'UnknownNameError', kind: 'tag', unknownName: 'vipp' });
    expect(err.message).toBe('unknown tag "vipp" (known: vip, dormant)');
  });
});

describe('CachedList', () => {
  function setup() {
    let now = 0;
    let loads = 0;
    const list = new CachedList(
      async () => [++loads],
      1_000,
      100,
      () => now,
    );
    return { list, advance: (ms: number) => (now += ms), loads: () => loads };
  }

  it('loads once and serves from memory until stale', async () => {
    const s = setup();
    await s.list.get();
    s.advance(999);
    await s.list.get();
    expect(s.loads()).toBe(1);
    s.advance(1);
    expect(await s.list.get()).toEqual([2]);
  });

  it('shares one load between concurrent callers', async () => {
    const s = setup();
    await Promise.all([s.list.get(), s.list.get(), s.list.get()]);
    expect(s.loads()).toBe(1);
  });

  it('refreshes on a miss, but not again for a name that missed recently', async () => {
    const s = setup();
    await s.list.get();
    expect(await s.list.refreshOnMiss('typo')).toEqual([2]);
    s.advance(99);
    expect(await s.list.refreshOnMiss('typo')).toBeUndefined();
    expect(await s.list.refreshOnMiss('new-name')).toEqual([3]);
    s.advance(1);
    expect(await s.list.refreshOnMiss('typo')).toEqual([4]);
  });
});
