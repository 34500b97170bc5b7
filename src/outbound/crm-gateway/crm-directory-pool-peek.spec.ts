// A preview (manual-run dry run, sweep plan) shows the member a pool would give next without
// taking the turn: the live draw after any number of previews is the one the preview showed.
import type { Redis } from 'ioredis';
import type { AppConfig } from '../../runtime/config/app-config';
import { poolRotationOf, type PoolSpec } from '../../language/assignment/pool-spec';
import type { PoolChoice } from '../../language/assignment/choose-member';
import { CrmDirectory } from './crm-directory.service';
import type { CrmGateway } from './crm-gateway.service';

const BEN = { id: 'member-ben', name: 'Ben', email: 'ben@example.com', status: 'active' };
const CARA = { id: 'member-cara', name: 'Cara', email: 'cara@example.com', status: 'active' };
const SPEC = { pool: ['Ben', 'Cara'], strategy: 'round-robin', skipInactive: true } as unknown as PoolSpec;
const ROTATION = poolRotationOf('twin-a', 0);

const picked = (c: PoolChoice): string => c.picked?.name ?? `none: ${c.why}`;

function directory() {
  const counters = new Map<string, number>();
  const redis = {
    incr: async (key: string) => (counters.set(key, (counters.get(key) ?? 0) + 1), counters.get(key)),
    get: async (key: string) => (counters.has(key) ? String(counters.get(key)) : null),
  } as unknown as Redis;
  const gateway = { listUsers: async () => ({ data: [BEN, CARA], hasNext: false }) } as unknown as CrmGateway;
  const config = { redis: { prefix: 'test' }, crm: { apiKey: 'k' } } as unknown as AppConfig;
  return { dir: new CrmDirectory(gateway, redis, config), counters };
}

describe('CrmDirectory.choosePoolMember with peek', () => {
  it.each([0, 1, 2, 5])(
    'after %i live draws, two previews show the next draw and move nothing',
    async (n) => {
      const { dir, counters } = directory();
      for (let i = 0; i < n; i++) await dir.choosePoolMember(SPEC, ROTATION);
      const before = [...counters.values()];
      const first = await dir.choosePoolMember(SPEC, ROTATION, { peek: true });
      const second = await dir.choosePoolMember(SPEC, ROTATION, { peek: true });
      expect([...counters.values()]).toEqual(before);
      const live = await dir.choosePoolMember(SPEC, ROTATION);
      expect(picked(second)).toBe(picked(first));
      expect(picked(live)).toBe(picked(first));
      // The live draw really took the turn: the next one gives the other member.
      expect(picked(await dir.choosePoolMember(SPEC, ROTATION))).not.toBe(picked(live));
      expect(['Ben', 'Cara']).toContain(picked(live));
    },
  );
});
