import Redis from 'ioredis';
import { loadConfig } from '../../runtime/config/load-config';
import { CRM_OPERATIONS } from './crm-client';
import { CrmGateway } from './crm-gateway.service';

describe('CrmGateway', () => {
  // Never connects: these tests stop before any budget call.
  const redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
  const config = loadConfig({
    REDIS_PREFIX: `test-gw-${process.pid}`,
    CRM_BASE_URL: 'http://127.0.0.1:9',
    CRM_API_KEY: 'k',
  });
  const gateway = new CrmGateway(config, redis);
  afterAll(() => redis.disconnect());

  it('offers every operation of the client under the same name', () => {
    const missing = CRM_OPERATIONS.filter(
      (op) => typeof (gateway as unknown as Record<string, unknown>)[op] !== 'function',
    );
    expect(missing).toEqual([]);
  });

  it('refuses a call whose last argument is not CallOptions instead of dropping an argument', async () => {
    const addTag = gateway.addTag as unknown as (...a: unknown[]) => Promise<unknown>;
    await expect(addTag('c0000000-0000-4000-8000-000000000001', 'tag-1')).rejects.toThrow(
      'addTag: the last argument must be CallOptions',
    );
  });
});
