import { createHmac } from 'node:crypto';
import { retryDelayMs, signatureHeader } from './webhook-signature';

describe('signatureHeader', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>', () => {
    const body = '{"id":"evt_1","type":"contact.created"}';
    const expected = createHmac('sha256', 'whsec_x').update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader('whsec_x', body, 1700000000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('changes with the timestamp, the secret and the body', () => {
    const base = signatureHeader('s', 'b', 1);
    expect(signatureHeader('s', 'b', 2)).not.toBe(base);
    expect(signatureHeader('t', 'b', 1)).not.toBe(base);
    expect(signatureHeader('s', 'c', 1)).not.toBe(base);
  });
});

describe('retryDelayMs', () => {
  it('doubles from the base: 1 s, 2 s, 4 s, 8 s, 16 s, 32 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(1000, n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000,
    ]);
  });
});
