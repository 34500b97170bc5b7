// Custom deliveries' inbox ids and stored payloads.
import { createHash } from 'node:crypto';
import { customEventId, customInboxPayload } from './custom-delivery';

const body = Buffer.from('{"orderId":"o-1"}');
const hash = createHash('sha256').update(body).digest('hex');

describe('customEventId', () => {
  it.each([
    ['the payload member', { name: 'shop', 'event-id': '/orderId' }, { orderId: 'o-1' }, 'shop:o-1'],
    ['a numeric payload id', { name: 'shop', 'event-id': '/n' }, { n: 7 }, 'shop:7'],
    [
      'the hash when the payload has none',
      { name: 'shop', 'event-id': '/orderId' },
      {},
      `shop:sha256:${hash}`,
    ],
    ['the hash without a pointer', { name: 'erp' }, {}, `erp:sha256:${hash}`],
    [
      'the hash for an empty payload id',
      { name: 'erp', 'event-id': '/id' },
      { id: '' },
      `erp:sha256:${hash}`,
    ],
  ])('uses %s', (_what, source, payload, expected) => {
    expect(customEventId(source, payload, body)).toBe(expected);
  });
});

describe('customInboxPayload', () => {
  it('keeps the body as sent under data', () => {
    const stored = customInboxPayload('shop', 'shop:o-1', '{ "orderId" : "o-1" }');
    expect(stored.type).toBe('custom.shop');
    expect(stored.text).toBe('{"id":"shop:o-1","type":"custom.shop","data":{ "orderId" : "o-1" }}');
    expect(JSON.parse(stored.text).data).toEqual({ orderId: 'o-1' });
  });
});
