import { randomBytes } from 'node:crypto';
import { OIDC_PENDING_MS, openPending, sealPending } from './oidc-pending';

describe('the pending sign-in cookie', () => {
  const key = randomBytes(32);
  const pending = { state: 's', nonce: 'n', verifier: 'v', redirectUri: 'https://c.example/cb' };

  it('opens what it sealed, within ten minutes', () => {
    const sealed = sealPending(key, pending, 1_000);
    expect(openPending(key, sealed, 1_000 + OIDC_PENDING_MS - 1)).toEqual(pending);
    expect(openPending(key, sealed, 1_000 + OIDC_PENDING_MS + 1)).toBeUndefined();
  });

  it.each([
    ['another key', (s: string) => s, randomBytes(32)],
    ['a changed body', (s: string) => `x${s.slice(1)}`, undefined],
    ['no signature', (s: string) => s.split('.')[0], undefined],
    ['not a string', () => 42 as unknown as string, undefined],
  ])('refuses %s', (_name, change, otherKey) => {
    expect(openPending(otherKey ?? key, change(sealPending(key, pending)))).toBeUndefined();
  });
});
