// Webhook secrets at rest: AES-256-GCM with a key from the environment, the key's id stored beside
// each ciphertext so a rotated key still opens what it sealed. A database dump alone no longer
// lets anyone sign deliveries. Pure: node:crypto only, no Nest, no I/O.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SecretKey {
  /** Names the key without revealing it (stored with each ciphertext). */
  id: string;
  key: Buffer;
}

/** A secret as stored: `<iv>.<tag>.<ciphertext>` (base64url) and the id of the key that sealed it. */
export interface SealedSecret {
  ciphertext: string;
  keyId: string;
}

/**
 * The key used when WEBHOOK_SECRET_KEY is not set outside production (the embedded sandbox demo,
 * local development): derived from a public text, so it protects nothing; it only keeps one code
 * path. NODE_ENV=production refuses to start without a key (src/runtime/config/load-config.ts).
 */
export const LOCAL_SECRET_KEY_TEXT = 'crm-rules: local-only key for webhook secrets, not a secret';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** 32 bytes as 64 hex digits or as base64 (padded or not, standard or url alphabet); else undefined. */
export function parseSecretKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)) return undefined;
  const key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? key : undefined;
}

export function secretKeyOf(key: Buffer): SecretKey {
  const id = createHash('sha256').update('crm-rules webhook secret key id\0').update(key).digest('hex');
  return { id: id.slice(0, 16), key };
}

export function localSecretKey(): SecretKey {
  return secretKeyOf(createHash('sha256').update(LOCAL_SECRET_KEY_TEXT).digest());
}

/** `context` (the subscription's id) is authenticated too: a ciphertext moved to another row does not open. */
export function sealSecret(plain: string, key: SecretKey, context: string): SealedSecret {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
  return { ciphertext: parts.join('.'), keyId: key.id };
}

const UNREADABLE = {
  unknown_key: 'sealed with a key that is neither WEBHOOK_SECRET_KEY nor in WEBHOOK_SECRET_OLD_KEYS',
  malformed: 'stored value is not a sealed secret',
  not_authentic: 'wrong key, or the stored value was altered',
  not_sealed: 'stored in plain text with no key id (not sealed by migration 1766020000001): refused',
} as const;

/** Why a stored secret could not be opened. The message never holds the secret or a key. */
export class SecretUnreadableError extends Error {
  constructor(readonly reason: keyof typeof UNREADABLE) {
    super(UNREADABLE[reason]);
    this.name = 'SecretUnreadableError';
  }
}

/** Opens a secret with whichever of `keys` sealed it (the current one or an old one). */
export function openSecret(sealed: SealedSecret, keys: readonly SecretKey[], context: string): string {
  const key = keys.find((k) => k.id === sealed.keyId);
  if (!key) throw new SecretUnreadableError('unknown_key');
  const parts = sealed.ciphertext.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (parts.length !== 3 || parts[0].length !== IV_BYTES || parts[1].length !== TAG_BYTES)
    throw new SecretUnreadableError('malformed');
  const [iv, tag, body] = parts;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError('not_authentic');
  }
}
