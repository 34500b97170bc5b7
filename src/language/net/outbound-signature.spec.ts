// The outbound signature v2: what it covers, checked by recomputing it as a receiver would.
import { createHmac } from 'node:crypto';
import { outboundSignatureHeader, signV2, type SignedParts } from './outbound-signature';

const SECRET = 'engine-signing-secret-0123456789abcdef';
const base: SignedParts = {
  method: 'POST',
  url: 'https://erp.example.com/orders/1',
  idempotencyKey: 'run.0',
  body: '{"a":1}',
};

describe('outbound signature v2', () => {
  it('is the documented HMAC of t, method, URL, key and body', () => {
    const expected = createHmac('sha256', SECRET)
      .update(`1700000000\nPOST\nhttps://erp.example.com/orders/1\nrun.0\n{"a":1}`)
      .digest('hex');
    expect(outboundSignatureHeader(SECRET, base, false, 1700000000)).toBe(`t=1700000000,v2=${expected}`);
  });

  // Finding: the signature covered the body only: every GET signed in one second was the same.
  it.each([
    ['method', { method: 'PUT' }],
    ['URL', { url: 'https://erp.example.com/orders/2' }],
    ['idempotency key', { idempotencyKey: 'run.1' }],
    ['body', { body: '{"a":2}' }],
  ])('changes with the %s', (_what, change) => {
    expect(signV2(SECRET, 1700000000, { ...base, ...change })).not.toBe(signV2(SECRET, 1700000000, base));
  });

  it('changes with the key: a per-host secret signs apart', () => {
    expect(signV2('another-host-secret-0123456789abcdef', 1700000000, base)).not.toBe(
      signV2(SECRET, 1700000000, base),
    );
  });

  it('adds v1 beside v2 only while receivers migrate', () => {
    expect(outboundSignatureHeader(SECRET, base, true, 1700000000)).toMatch(
      /^t=1700000000,v2=[0-9a-f]{64},v1=[0-9a-f]{64}$/,
    );
  });
});
