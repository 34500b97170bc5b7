// The directory's cache-only view (runs settled inside a transaction): answers from loaded lists,
// refuses anything that would call the CRM or move the shared round-robin rotation.
import type { Redis } from 'ioredis';
import type { AppConfig } from '../../runtime/config/app-config';
import { CrmDirectory, NotCachedError } from './crm-directory.service';
import type { CrmGateway } from './crm-gateway.service';

const VIP = { id: 'tag-vip', name: 'vip', color: '#f00' };
const ANA = { id: 'member-ana', name: 'Ana', email: 'ana@example.com', status: 'active' };

/** A directory over a gateway that lists tags and members, counting its calls and round-robin draws. */
function directory() {
  const calls = { listTags: 0, listUsers: 0, draws: 0 };
  const gateway = {
    listTags: async () => (calls.listTags++, { data: [VIP], hasNext: false }),
    listUsers: async () => (calls.listUsers++, { data: [ANA], hasNext: false }),
  } as unknown as CrmGateway;
  const rotation = { incr: async () => ++calls.draws } as unknown as Redis;
  const config = { redis: { prefix: 'test' }, crm: { apiKey: 'k' } } as unknown as AppConfig;
  return { dir: new CrmDirectory(gateway, rotation, config), calls };
}

describe('CrmDirectory.cachedOnly', () => {
  it('refuses a name whose list is not loaded, without calling the CRM', async () => {
    const { dir, calls } = directory();
    await expect(dir.cachedOnly().resolveTag('vip')).rejects.toBeInstanceOf(NotCachedError);
    expect(calls.listTags).toBe(0);
  });

  it('answers from the list the directory loaded, and refuses a name it does not hold', async () => {
    const { dir, calls } = directory();
    await dir.resolveTag('vip');
    const cached = dir.cachedOnly();
    await expect(cached.resolveTag('VIP')).resolves.toEqual(VIP);
    await expect(cached.resolveTag('new')).rejects.toBeInstanceOf(NotCachedError);
    expect(calls.listTags).toBe(1);
    // The directory itself is unchanged: a miss still refreshes it.
    await expect(dir.resolveTag('new')).rejects.toThrow('unknown tag "new"');
    expect(calls.listTags).toBe(2);
  });

  it('never draws a round-robin member, even with the members loaded', async () => {
    const { dir, calls } = directory();
    await expect(dir.nextRoundRobinMember()).resolves.toEqual(ANA); // loads the members, draws once
    expect(calls).toMatchObject({ listUsers: 1, draws: 1 });
    await expect(dir.cachedOnly().nextRoundRobinMember()).rejects.toBeInstanceOf(NotCachedError);
    // A draw moves the shared rotation: a view that must not call out must not move it either.
    expect(calls).toMatchObject({ listUsers: 1, draws: 1 });
  });
});
