// What an http-request step sends and gets back, as the rule language names them: pure shapes
// (no client, no Nest), so the action catalogue can describe the step without importing the
// egress services (src/outbound/egress/outbound-requests.service.ts sends, egress-client.ts fetches).
import type { HeaderPart } from './secret-headers';

export interface OutboundRequest {
  method: string;
  url: string;
  /** Rendered text and `${secret.NAME}` references (filled here, at the last moment). */
  headers: Record<string, HeaderPart[]>;
  /** JSON text, or undefined for none. */
  body?: string;
  timeoutMs: number;
  /** The same on every attempt of one action: receivers apply it once. */
  idempotencyKey: string;
}

export interface OutboundSender {
  send(req: OutboundRequest): Promise<EgressResponse>;
  /** The name of a configured secret whose value `value` contains, if any (never the value). */
  secretIn(value: unknown): string | undefined;
}

export interface EgressResponse {
  status: number;
  contentType: string;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}
