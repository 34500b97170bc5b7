// Deliveries of custom event sources (sources.yaml): POST /hooks/<name>. Refused by default, in
// this order: unknown source 404, secret variable unset 503, bad signature 401, body not JSON or
// failing the source's schema 400 (kept nowhere). An accepted delivery goes into the inbox
// through IntakeService like a CRM webhook (deduplication, ledger, replay, failure states); its
// contact is looked up later by the events worker, never here (intake stays fast).
import { Injectable, Logger } from '@nestjs/common';
import { EngineMetrics } from '../../ops/engine-metrics';
import type { CustomSource } from '../../language/rules/custom-sources';
import { customEventId, customInboxPayload } from './custom-delivery';
import { RuleSetService } from '../../rule-set/rule-set.service';
import { IntakeService } from './intake.service';
import { checkSignatureHeader, matchSignature, type SignatureHeader } from '../../net/verify-signature';

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
    const id = customEventId(source, payload, headerEventId, rawBody);
    const stored = customInboxPayload(source.name, id, text);
    return this.intake.storeVerified({ id, type: stored.type, data: payload }, stored.text);
  }

  private badSignature(name: string, reason: string): { ok: false; refusal: HookOutcome } {
    this.metrics.events.inc({ outcome: 'refused_signature' });
    this.logger.warn(`event source "${name}" refused a delivery: ${reason}`);
    return refusal(401, 'invalid_signature', `signature rejected: ${reason}`);
  }
}
