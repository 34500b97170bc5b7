import { FaultInjector } from './fault-injector';

describe('FaultInjector', () => {
  it('applies a fault to the next count matching requests, then disarms it', () => {
    const faults = new FaultInjector();
    faults.arm({ kind: 'error500', count: 2 });
    expect(faults.takeForRequest('error500', 'GET', '/v1/tags')).toMatchObject({
      kind: 'error500',
      remaining: 1,
    });
    expect(faults.takeForRequest('error500', 'POST', '/v1/contacts')).toMatchObject({ remaining: 0 });
    expect(faults.takeForRequest('error500', 'GET', '/v1/tags')).toBeUndefined();
    expect(faults.list()).toEqual([]);
  });

  it('matches "METHOD pattern" exactly and a bare pattern for any method', () => {
    const faults = new FaultInjector();
    faults.arm({ kind: 'latency', count: 5, route: 'POST /v1/contacts/:contactId/tags/:tagId' });
    faults.arm({ kind: 'error500', count: 5, route: '/v1/channels' });
    expect(faults.takeForRequest('latency', 'DELETE', '/v1/contacts/:contactId/tags/:tagId')).toBeUndefined();
    expect(faults.takeForRequest('latency', 'post', '/v1/contacts/:contactId/tags/:tagId')).toMatchObject({
      kind: 'latency',
      remaining: 4,
    });
    expect(faults.takeForRequest('error500', 'GET', '/v1/channels')).toMatchObject({ route: '/v1/channels' });
    expect(faults.takeForRequest('error500', 'GET', '/v1/tags')).toBeUndefined();
  });

  it('keeps kinds apart: a latency fault is not a 500', () => {
    const faults = new FaultInjector();
    faults.arm({ kind: 'latency', count: 1, latencyMs: 5 });
    expect(faults.takeForRequest('error500', 'GET', '/v1/tags')).toBeUndefined();
    expect(faults.takeForRequest('latency', 'GET', '/v1/tags')).toMatchObject({ latencyMs: 5 });
  });

  it('drops deliveries of the named event kind only', () => {
    const faults = new FaultInjector();
    faults.arm({ kind: 'drop-delivery', count: 1, route: 'contact.created' });
    expect(faults.takeForDelivery('contact.updated')).toBeUndefined();
    expect(faults.takeForDelivery('contact.created')).toMatchObject({ kind: 'drop-delivery', remaining: 0 });
    expect(faults.takeForDelivery('contact.created')).toBeUndefined();
  });

  it('consumes faults in the order they were armed', () => {
    const faults = new FaultInjector();
    faults.arm({ kind: 'rate429', count: 1, retryAfterSec: 3 });
    faults.arm({ kind: 'rate429', count: 1, retryAfterSec: 9 });
    expect(faults.takeForRequest('rate429', 'GET', '/x')?.retryAfterSec).toBe(3);
    expect(faults.takeForRequest('rate429', 'GET', '/x')?.retryAfterSec).toBe(9);
  });
});
