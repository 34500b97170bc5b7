import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { CrmDirectory, NotCachedError } from './crm-directory.service';
import type { CrmGateway } from './crm-gateway.service';

const VIP = { id: 'tag-vip', name: 'vip', color: '#f00' };

/** A directory over a gateway that only lists tags, counting its calls. */
function directory() {
  const calls = { listTags: 0 };
  const gateway = {
    listTags: async () => (calls.listTags++, { data: [VIP], hasNext: false }),
  } as unknown as CrmGateway;
  const config = { redis: { prefix: 'test' }, crm: { apiKey: 'k' } } as unknown as AppConfig;
  return { dir: new CrmDirectory(gateway, {} as Redis, config), calls };
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

  it('never draws a round-robin member', async () => {
    const { dir } = directory();
    await expect(dir.cachedOnly().nextRoundRobinMember()).rejects.toBeInstanceOf(NotCachedError);
  });
});
