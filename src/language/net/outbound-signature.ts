// The engine's signature on an outbound http-request, version 2 (docs/RULES.md, http-request):
//   X-Engine-Signature: t=<unix seconds>,v2=<hex HMAC-SHA256>
// over the lines `t`, METHOD, the full URL as sent, the Idempotency-Key, then the raw body:
//   `${t}\n${METHOD}\n${url}\n${key}\n${body}`
// v1 signed `t.body` only: every GET of one second had the same signature and a receiver could
// replay a request to another URL. Each hop (a 307/308 redirect) is signed for its own URL. The
// key is the host's own secret when one is configured, else HTTP_ACTION_SIGNING_SECRET, so a
// receiver holding its secret cannot forge requests to the others. `legacyV1` adds the old v1
// beside it while receivers migrate (HTTP_ACTION_SIGNATURE_V1). Pure.
import { createHmac } from 'node:crypto';
import { signPayload } from './verify-signature';

export interface SignedParts {
  method: string;
  url: string;
  idempotencyKey: string;
  body: string;
}

export function signV2(secret: string, t: number, p: SignedParts): string {
  return createHmac('sha256', secret)
    .update(`${t}\n${p.method.toUpperCase()}\n${p.url}\n${p.idempotencyKey}\n`)
    .update(p.body)
    .digest('hex');
}

export function outboundSignatureHeader(
  secret: string,
  parts: SignedParts,
  legacyV1 = false,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const v1 = legacyV1 ? `,v1=${signPayload(secret, nowSeconds, parts.body)}` : '';
  return `t=${nowSeconds},v2=${signV2(secret, nowSeconds, parts)}${v1}`;
}
