// Deliveries of custom event sources (sources.yaml): POST /hooks/<name>. Refused by default, in
// this order: unknown source 404, secret variable unset 503, bad signature 401, body not JSON or
// failing the source's schema 400 (kept nowhere). An accepted delivery goes into the inbox
// through IntakeService like a CRM webhook (deduplication, ledger, replay, failure states); its
// contact is looked up later by the events worker, never here (intake stays fast).
import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EngineMetrics } from '../ops/engine-metrics';
import { CUSTOM_EVENT_PREFIX } from '../rules/custom-event-kind';
import { readPointer, type CustomSource } from '../rules/custom-sources';
import { RuleSetService } from '../rule-set/rule-set.service';
import { IntakeService } from './intake.service';
import { checkSignatureHeader, matchSignature, type SignatureHeader } from './verify-signature';

export interface HookOutcome {
  status: number;
  body: unknown;
}

export type HookCheck =
  | { ok: true; source: CustomSource; secret: string; header: SignatureHeader }
  | { ok: false; refusal: HookOutcome };

const refusal = (status: number, code: string, message: string): { ok: false; refusal: HookOutcome } => ({
  ok: false,
  refusal: { status, body: { error: { code, message } } },
});

/** The inbox id of a delivery: per source, from the payload's id, the X-Event-Id header, or the bytes. */
export function customEventId(
  source: CustomSource,
  payload: unknown,
  headerId: string | undefined,
  rawBody: Buffer,
): string {
  const fromPayload = source['event-id'] ? readPointer(payload, source['event-id']) : undefined;
  const id =
    typeof fromPayload === 'string' || typeof fromPayload === 'number'
      ? String(fromPayload)
      : headerId && headerId.length <= 200
        ? headerId
        : `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
  return `${source.name}:${id}`;
}

@Injectable()
export class CustomIntakeService {
  private readonly logger = new Logger(CustomIntakeService.name);

  constructor(
    private readonly rules: RuleSetService,
    private readonly intake: IntakeService,
    private readonly metrics: EngineMetrics,
  ) {}

  /** Before the body is read: the source, its secret and a fresh, well-formed signature header. */
  check(name: string, signature: string | undefined): HookCheck {
    const source = this.rules.current()?.sources.get(name);
    if (!source) {
      this.metrics.events.inc({ outcome: 'refused_source' });
      return refusal(404, 'unknown_source', 'no such event source');
    }
    const secret = process.env[source.secret];
    if (!secret) {
      this.metrics.events.inc({ outcome: 'unavailable' });
      // The variable's name only: it says what to set, and the value is not there to leak.
      this.logger.error(
        `event source "${name}" refused a delivery: environment variable ${source.secret} is not set`,
      );
      return refusal(503, 'source_not_configured', 'this event source has no secret configured');
    }
    const header = checkSignatureHeader(signature);
    if (!header.ok) return this.badSignature(name, header.reason);
    return { ok: true, source, secret, header: header.header };
  }

  /** The body of a delivery that passed `check`: signature, JSON, the source's schema, storage. */
  async accept(
    checked: Extract<HookCheck, { ok: true }>,
    rawBody: Buffer,
    headerEventId: string | undefined,
  ): Promise<HookOutcome> {
    const { source } = checked;
    const match = matchSignature(checked.header, rawBody, [checked.secret]);
    if (!match.ok) return this.badSignature(source.name, match.reason).refusal;
    const text = rawBody.toString('utf8');
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      this.metrics.events.inc({ outcome: 'refused_json' });
      return refusal(400, 'invalid_json', 'body is not valid JSON').refusal;
    }
    if (!source.validate(payload)) {
      this.metrics.events.inc({ outcome: 'refused_schema' });
      const errors = (source.validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
      return refusal(
        400,
        'invalid_payload',
        `payload does not match the schema of "${source.name}": ${errors.join('; ')}`,
      ).refusal;
    }
    const type = `${CUSTOM_EVENT_PREFIX}${source.name}`;
    const id = customEventId(source, payload, headerEventId, rawBody);
    // The sender's exact text under `data`: the inbox keeps what was signed, beside id and type.
    const stored = `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"data":${text}}`;
    return this.intake.storeVerified({ id, type, data: payload }, stored);
  }

  private badSignature(name: string, reason: string): { ok: false; refusal: HookOutcome } {
    this.metrics.events.inc({ outcome: 'refused_signature' });
    this.logger.warn(`event source "${name}" refused a delivery: ${reason}`);
    return refusal(401, 'invalid_signature', `signature rejected: ${reason}`);
  }
}
