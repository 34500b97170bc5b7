// Sealing webhook secrets at rest: what opens, what does not, and how a rotated key keeps working.
import { randomBytes } from 'node:crypto';
import {
  localSecretKey,
  openSecret,
  parseSecretKey,
  sealSecret,
  secretKeyOf,
  SecretUnreadableError,
} from './secret-box';

const SECRET = 'whsec_0123456789abcdef';
const keyA = secretKeyOf(randomBytes(32));
const keyB = secretKeyOf(randomBytes(32));
const unreadable = (reason: string) => expect.objectContaining({ name: 'SecretUnreadableError', reason });

/** Flips one bit of part `index` (0 iv, 1 tag, 2 ciphertext) of a sealed value. */
function tamper(ciphertext: string, index: number): string {
  const parts = ciphertext.split('.');
  const bytes = Buffer.from(parts[index], 'base64url');
  bytes[0] ^= 1;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secret box', () => {
  it('opens what it sealed, and the stored value holds no trace of the secret', () => {
    const sealed = sealSecret(SECRET, keyA, 'sub-1');
    expect(sealed.keyId).toBe(keyA.id);
    expect(sealed.ciphertext).not.toContain(SECRET);
    expect(sealed.ciphertext).not.toContain(Buffer.from(SECRET).toString('base64url'));
    expect(openSecret(sealed, [keyA], 'sub-1')).toBe(SECRET);
  });

  it('seals the same secret differently each time (random IV)', () => {
    expect(sealSecret(SECRET, keyA, 'sub-1').ciphertext).not.toBe(
      sealSecret(SECRET, keyA, 'sub-1').ciphertext,
    );
  });

  it.each([
    [
      'the key is not among those given',
      () => openSecret(sealSecret(SECRET, keyA, 's'), [keyB], 's'),
      'unknown_key',
    ],
    [
      'another key claims the same id (wrong key)',
      () => openSecret(sealSecret(SECRET, keyA, 's'), [{ id: keyA.id, key: keyB.key }], 's'),
      'not_authentic',
    ],
    ['the IV was altered', () => openSecret(alter(0), [keyA], 's'), 'not_authentic'],
    ['the tag was altered', () => openSecret(alter(1), [keyA], 's'), 'not_authentic'],
    ['the ciphertext was altered', () => openSecret(alter(2), [keyA], 's'), 'not_authentic'],
    [
      'it was moved to another subscription',
      () => openSecret(sealSecret(SECRET, keyA, 's'), [keyA], 't'),
      'not_authentic',
    ],
    ['it is plain text', () => openSecret({ ciphertext: SECRET, keyId: keyA.id }, [keyA], 's'), 'malformed'],
  ])('refuses to open a secret when %s', (_case, open, reason) => {
    expect(open).toThrow(SecretUnreadableError);
    try {
      open();
    } catch (err) {
      expect(err).toEqual(unreadable(reason));
      expect((err as Error).message).not.toContain(SECRET);
    }
  });

  it('opens with an old key after a rotation, and seals anew with the current one', () => {
    const before = sealSecret(SECRET, keyA, 'sub-1');
    const keys = [keyB, keyA]; // WEBHOOK_SECRET_KEY = B, WEBHOOK_SECRET_OLD_KEYS = A
    const plain = openSecret(before, keys, 'sub-1');
    const after = sealSecret(plain, keys[0], 'sub-1');
    expect(after.keyId).toBe(keyB.id);
    expect(openSecret(after, [keyB], 'sub-1')).toBe(SECRET);
    expect(() => openSecret(after, [keyA], 'sub-1')).toThrow(SecretUnreadableError);
  });

  it.each([
    ['64 hex digits', true, 'ab'.repeat(32)],
    ['base64, padded', true, randomBytes(32).toString('base64')],
    ['base64url, unpadded', true, randomBytes(32).toString('base64url')],
    ['31 bytes', false, randomBytes(31).toString('base64')],
    ['33 bytes', false, randomBytes(33).toString('base64')],
    ['63 hex digits', false, 'a'.repeat(63)],
    ['a passphrase', false, 'correct horse battery staple'],
  ])('parses a key given as %s: %s', (_what, ok, text) => {
    const key = parseSecretKey(text);
    expect(key?.length === 32).toBe(ok);
  });

  it('names keys by an id that does not reveal them, and the local key is always the same', () => {
    expect(keyA.id).toMatch(/^[0-9a-f]{16}$/);
    expect(keyA.key.toString('hex')).not.toContain(keyA.id);
    expect(localSecretKey().id).toBe(localSecretKey().id);
    expect(localSecretKey().id).not.toBe(keyA.id);
  });
});

function alter(index: number) {
  const sealed = sealSecret(SECRET, keyA, 's');
  return { ...sealed, ciphertext: tamper(sealed.ciphertext, index) };
}
