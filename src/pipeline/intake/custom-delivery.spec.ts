// Custom deliveries' inbox ids and stored payloads.
import { createHash } from 'node:crypto';
import { customEventId, customInboxPayload } from './custom-delivery';

const body = Buffer.from('{"orderId":"o-1"}');
const hash = createHash('sha256').update(body).digest('hex');

describe('customEventId', () => {
  it.each([
    ['the payload member', { name: 'shop', 'event-id': '/orderId' }, { orderId: 'o-1' }, 'h-1', 'shop:o-1'],
    ['a numeric payload id', { name: 'shop', 'event-id': '/n' }, { n: 7 }, undefined, 'shop:7'],
    ['the header when the payload has none', { name: 'shop', 'event-id': '/orderId' }, {}, 'h-1', 'shop:h-1'],
    ['the header when no pointer is declared', { name: 'erp' }, { orderId: 'o-1' }, 'h-2', 'erp:h-2'],
    ['the hash without either', { name: 'erp' }, {}, undefined, `erp:sha256:${hash}`],
    [
      'the hash for an empty payload id',
      { name: 'erp', 'event-id': '/id' },
      { id: '' },
      undefined,
      `erp:sha256:${hash}`,
    ],
    ['the hash for an oversized header', { name: 'erp' }, {}, 'x'.repeat(201), `erp:sha256:${hash}`],
  ])('uses %s', (_what, source, payload, header, expected) => {
    expect(customEventId(source, payload, header, body)).toBe(expected);
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
