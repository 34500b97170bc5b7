// Deliveries of custom event sources (sources.yaml): POST /hooks/<name>. Refused by default, in
// this order: a malformed signature header 401 (before the body); an unknown source, a source whose
// secret variable is unset or a bad signature 401 with the same body (names cannot be enumerated;
// the log and the metric tell them apart); nesting deeper than MAX_JSON_DEPTH, a body that is not
// JSON or fails the source's schema 400 (kept nowhere). An accepted delivery goes into the inbox
// through IntakeService like a CRM webhook (deduplication, ledger, replay, failure states); its
// contact is looked up later by the events worker, never here (intake stays fast).
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { EngineMetrics } from '../../operator/ops/engine-metrics';
import type { CustomSource } from '../../language/rules/format/custom-sources';
import { customEventId, customInboxPayload } from './custom-delivery';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { IntakeService } from './intake.service';
import {
  checkSignatureHeader,
  matchSignature,
  type SignatureHeader,
} from '../../language/net/verify-signature';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../../language/net/json-depth';

export interface HookOutcome {
  status: number;
  body: unknown;
}

/** A well-formed header; `source` and `secret` are absent when the delivery cannot be from it. */
export type HookCheck =
  | { ok: true; name: string; source?: CustomSource; secret?: string; header: SignatureHeader }
  | { ok: false; refusal: HookOutcome };

/** A source's HMAC key shorter than this is refused (docs/SECURITY.md, Intake). */
export const MIN_SOURCE_SECRET_LENGTH = 32;

const refusal = (status: number, code: string, message: string): { ok: false; refusal: HookOutcome } => ({
  ok: false,
  refusal: { status, body: { error: { code, message } } },
});

@Injectable()
export class CustomIntakeService implements OnApplicationBootstrap {
  private readonly logger = new Logger(CustomIntakeService.name);

  constructor(
    private readonly rules: RuleSetService,
    private readonly intake: IntakeService,
    private readonly metrics: EngineMetrics,
  ) {}

  /** Said at start and at each reload: a source whose key is unset or weak refuses every delivery. */
  onApplicationBootstrap(): void {
    const report = () => {
      for (const source of this.rules.current()?.sources.values() ?? []) {
        const value = process.env[source.secret];
        if (!value || value.length < MIN_SOURCE_SECRET_LENGTH)
          this.logger.error(
            `event source "${source.name}" will refuse every delivery: ${source.secret} is ${
              value ? `shorter than ${MIN_SOURCE_SECRET_LENGTH} characters` : 'not set'
            }`,
          );
      }
    };
    report();
    this.rules.onChange(report);
  }

  /**
   * Before the body is read: a well-formed, fresh signature header. The source and its secret are
   * looked up here but judged in `accept`, after the body, so that an unknown name costs and
   * answers exactly what a known one with a wrong signature does.
   */
  check(name: string | undefined, signature: string | undefined): HookCheck {
    const header = checkSignatureHeader(signature);
    if (!header.ok) return this.badSignature(name ?? '', header.reason);
    const source = name === undefined ? undefined : this.rules.current()?.sources.get(name);
    const secret = source ? process.env[source.secret] : undefined;
    // A weak value is no key: refused like an unset one (the log says which).
    const strong = secret !== undefined && secret.length >= MIN_SOURCE_SECRET_LENGTH;
    return { ok: true, name: name ?? '', source, secret: strong ? secret : undefined, header: header.header };
  }

  /** The body of a delivery that passed `check`: signature, JSON, the source's schema, storage. */
  async accept(checked: Extract<HookCheck, { ok: true }>, rawBody: Buffer): Promise<HookOutcome> {
    const { source, secret } = checked;
    if (!source || !secret) return this.unknownOrUnconfigured(checked.name, source);
    const match = matchSignature(checked.header, rawBody, [secret]);
    if (!match.ok) return this.badSignature(source.name, match.reason).refusal;
    if (!withinJsonDepth(rawBody)) {
      this.metrics.events.inc({ outcome: 'refused_depth' });
      return refusal(400, 'too_deep', `JSON nests deeper than ${MAX_JSON_DEPTH} levels`).refusal;
    }
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
    const id = customEventId(source, payload, rawBody);
    const stored = customInboxPayload(source.name, id, text);
    return this.intake.storeVerified({ id, type: stored.type, data: payload }, stored.text);
  }

  /** Answered like a signature mismatch; only the log and the metric say which it was. */
  private unknownOrUnconfigured(name: string, source: CustomSource | undefined): HookOutcome {
    if (!source) {
      this.metrics.events.inc({ outcome: 'refused_source' });
      this.logger.warn(`refused a delivery to unknown event source ${JSON.stringify(name.slice(0, 80))}`);
    } else {
      this.metrics.events.inc({ outcome: 'unavailable' });
      // The variable's name only: it says what to set, and the value is not there to leak.
      this.logger.error(
        `event source "${source.name}" refused a delivery: environment variable ${source.secret} is ${
          process.env[source.secret] ? `shorter than ${MIN_SOURCE_SECRET_LENGTH} characters` : 'not set'
        }`,
      );
    }
    return refusal(401, 'invalid_signature', 'signature rejected: signature_mismatch').refusal;
  }

  private badSignature(name: string, reason: string): { ok: false; refusal: HookOutcome } {
    this.metrics.events.inc({ outcome: 'refused_signature' });
    this.logger.warn(`event source ${JSON.stringify(name.slice(0, 80))} refused a delivery: ${reason}`);
    return refusal(401, 'invalid_signature', `signature rejected: ${reason}`);
  }
}
