// docs/CRM-API.md §6: X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + rawBody)>.
// Deliberately independent of the engine's src/language/net/verify-signature.ts: the sandbox plays the
// CRM, and two implementations of the wire format check each other (the conformance suite
// verifies these deliveries with the engine's verifier).
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';

export function signatureHeader(secret: string, rawBody: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** Exponential backoff before retry `retry` (1-based): base, 2·base, 4·base, ... */
export function retryDelayMs(baseMs: number, retry: number): number {
  return baseMs * 2 ** (retry - 1);
}
