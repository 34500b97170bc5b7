// Webhook signature check of docs/CRM-API.md §6: header `t=<unix>,v1=<hex>`, expected value the
// hex HMAC-SHA256 keyed with the secret of `t + "." + raw body`, compared timing-safely, `t` at most
// 5 minutes away from now in either direction. Pure: no Nest, no I/O.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'missing_timestamp'
  | 'missing_signature'
  | 'multiple_signatures'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'no_secret_configured';

export type SignatureCheck =
  { ok: true; timestamp: number; secretIndex: number } | { ok: false; reason: SignatureFailure };

export function signPayload(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** Builds a header value the way the CRM does; used by the sandbox and tests. */
export function signatureHeader(
  secret: string,
  rawBody: Buffer | string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  return `t=${nowSeconds},v1=${signPayload(secret, nowSeconds, rawBody)}`;
}

/** A header that is present, well formed and fresh: what can be known before reading the body. */
export interface SignatureHeader {
  timestamp: number;
  signature: Buffer;
}

export type HeaderCheck = { ok: true; header: SignatureHeader } | { ok: false; reason: SignatureFailure };

/**
 * Checks the header alone (present, parseable, fresh), so a delivery that can never pass is
 * refused before its body is read.
 */
export function checkSignatureHeader(
  header: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): HeaderCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing_header' };

  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed_header' };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) return { ok: false, reason: 'malformed_header' };
      timestamp = value;
    } else if (key === 'v1') {
      signatures.push(value);
    }
    // Other schemes (v0, future v2) are ignored, as a receiver of a versioned scheme should.
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
    return { ok: false, reason: 'missing_timestamp' };
  if (signatures.length === 0) return { ok: false, reason: 'missing_signature' };
  // One delivery carries one v1; two is either a bug or an attempt to try several guesses at once.
  if (signatures.length > 1) return { ok: false, reason: 'multiple_signatures' };
  const given = signatures[0];
  if (!/^[0-9a-f]{64}$/i.test(given)) return { ok: false, reason: 'malformed_header' };

  const t = Number(timestamp);
  if (nowSeconds - t > toleranceSeconds) return { ok: false, reason: 'timestamp_too_old' };
  if (t - nowSeconds > toleranceSeconds) return { ok: false, reason: 'timestamp_in_future' };
  return { ok: true, header: { timestamp: t, signature: Buffer.from(given.toLowerCase(), 'hex') } };
}

/**
 * Several secrets may be valid at once (rotation: old and new subscription). The index of the one
 * that matched is returned; secrets themselves never leave this function.
 */
export function matchSignature(
  header: SignatureHeader,
  rawBody: Buffer,
  secrets: readonly string[],
): SignatureCheck {
  if (secrets.length === 0) return { ok: false, reason: 'no_secret_configured' };
  for (let i = 0; i < secrets.length; i++) {
    // The digest's bytes straight away (no hex string and back): this runs for every delivery.
    const expected = createHmac('sha256', secrets[i]).update(`${header.timestamp}.`).update(rawBody).digest();
    if (timingSafeEqual(expected, header.signature))
      return { ok: true, timestamp: header.timestamp, secretIndex: i };
  }
  return { ok: false, reason: 'signature_mismatch' };
}

/** Both checks at once: the header, then the body against the secrets. */
export function verifySignature(
  header: string | undefined,
  rawBody: Buffer,
  secrets: readonly string[],
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  if (secrets.length === 0) return { ok: false, reason: 'no_secret_configured' };
  const checked = checkSignatureHeader(header, nowSeconds, toleranceSeconds);
  return checked.ok ? matchSignature(checked.header, rawBody, secrets) : checked;
}
