// The http-request action's way out: fills secrets into headers, adds the Idempotency-Key and the
// engine's signature (the CRM's `t=…,v1=…` scheme, src/language/net/verify-signature.ts, keyed with
// HTTP_ACTION_SIGNING_SECRET), and sends through the egress client (policy, pinning, size cap)
// behind the per-host limits. Not the CRM gateway: none of this touches the CRM budget.
import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { outboundSignatureHeader } from '../../language/net/outbound-signature';
import { EgressClient } from './egress-client';
import type { EgressResponse, OutboundRequest, OutboundSender } from '../../language/net/outbound-request';
import {
  bareHost,
  EgressRefusedError,
  egressPolicy,
  hostAllowed,
  urlPort,
} from '../../language/net/egress-policy';
import { HostLimits } from './host-limits';
import { joinHeader, namesSecret } from '../../language/net/secret-headers';

export const EGRESS_REDIS = Symbol('EGRESS_REDIS');

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const SIGNATURE_HEADER = 'X-Engine-Signature';

/** Headers the engine sets itself; a rule's own value for them is dropped. */
const ENGINE_HEADERS = new Set([
  IDEMPOTENCY_HEADER.toLowerCase(),
  SIGNATURE_HEADER.toLowerCase(),
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
]);

export type { OutboundRequest, OutboundSender };

/** Longest in-process wait for a host's slot; past it the run is deferred (a delayed job). */
const HOST_WAIT_MS = 2_000;
/** A slot's lease without a heartbeat: a killed process's slots come back within this. */
const HOST_LEASE_MS = 10_000;

@Injectable()
export class OutboundRequests implements OutboundSender {
  private readonly client: EgressClient;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EGRESS_REDIS) redis: Redis,
  ) {
    const c = config.httpAction;
    const limits = new HostLimits(redis, {
      prefix: config.redis.prefix,
      concurrency: c.hostConcurrency,
      rate: c.hostRateLimit,
      windowMs: c.hostRateWindowMs,
      leaseMs: HOST_LEASE_MS,
      maxWaitMs: HOST_WAIT_MS,
    });
    this.client = new EgressClient(
      egressPolicy(c),
      { maxRedirects: c.maxRedirects, maxResponseBytes: c.maxResponseBytes },
      (host, signal) => limits.acquire(host, signal),
    );
  }

  /** HTTP_ACTION_MAX_ATTEMPTS: the runner ends an http-request `dead` at this many sends. */
  get maxAttempts(): number {
    return this.config.httpAction.maxAttempts;
  }

  /** The secret whose value `value` holds (any string inside it), by name. */
  secretIn(value: unknown): string | undefined {
    const text = JSON.stringify(value ?? null);
    for (const [name, secret] of Object.entries(this.config.httpAction.secrets))
      if (secret !== '' && text.includes(JSON.stringify(secret).slice(1, -1))) return name;
    return undefined;
  }

  async send(req: OutboundRequest): Promise<EgressResponse> {
    refuseMisdirectedSecrets(req, this.config.httpAction.secretHosts);
    const { secrets, signingSecret, hostSigningSecrets, signatureV1 } = this.config.httpAction;
    const headers: Record<string, string> = { 'user-agent': 'crm-rules-engine', accept: 'application/json' };
    const originHeaders: Record<string, string> = {};
    for (const [name, parts] of Object.entries(req.headers)) {
      if (ENGINE_HEADERS.has(name.toLowerCase())) continue;
      if (namesSecret(parts)) originHeaders[name] = joinHeader(parts, secrets);
      else headers[name] = joinHeader(parts, secrets);
    }
    headers[IDEMPOTENCY_HEADER] = req.idempotencyKey;
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    // Config requires the secret once any host is allowed; with none allowed nothing leaves anyway.
    const sign = (method: string, url: URL): [string, string] => {
      const secret = hostSigningSecrets[bareHost(url)] ?? signingSecret!;
      const parts = { method, url: url.toString(), idempotencyKey: req.idempotencyKey, body: req.body ?? '' };
      return [SIGNATURE_HEADER, outboundSignatureHeader(secret, parts, signatureV1)];
    };
    return this.client.send({
      ...(signingSecret ? { sign } : {}),
      method: req.method,
      url: req.url,
      headers,
      originHeaders,
      body: req.body,
      timeoutMs: req.timeoutMs,
    });
  }
}

/**
 * Each `${secret.NAME}` goes only to the hosts HTTP_ACTION_SECRET_HOSTS names for it (a secret
 * with none goes nowhere). Checked on the first URL: secret headers never follow a redirect to
 * another origin (egress-client.ts).
 */
function refuseMisdirectedSecrets(req: OutboundRequest, secretHosts: Record<string, string[]>): void {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return; // the client refuses it (egress_url_invalid)
  }
  for (const parts of Object.values(req.headers))
    for (const part of parts)
      if ('secret' in part && !hostAllowed(bareHost(url), secretHosts[part.secret] ?? [], urlPort(url)))
        throw new EgressRefusedError(
          'egress_secret_refused',
          `refused: secret ${part.secret} may not be sent to ${bareHost(url)} (HTTP_ACTION_SECRET_HOSTS names its hosts)`,
        );
}
