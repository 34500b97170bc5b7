import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { ContactJournalRepository } from '../../persistence/journal/contact-journal.repository';
import { EngineMetrics } from '../../operator/ops/engine-metrics';
import { EventsQueue } from '../../runtime/queues/events-queue.service';
import { InboxBatcher, Stored, UnstorablePayloadError } from './inbox-batcher';
import { INTAKE_DB } from './intake-db';
import { contactIdOf, eventKeyOf, eventTimeOf, storableJson } from './inbox-payload';
import {
  checkSignatureHeader,
  matchSignature,
  type SignatureHeader,
} from '../../language/net/verify-signature';
import { WebhookSecretsService } from './webhook-secrets.service';
import { MAX_JSON_DEPTH, withinJsonDepth } from '../../language/net/json-depth';

export type IntakeOutcome =
  | { status: 200; body: { received: true; duplicate: boolean; id: string } }
  | { status: 400 | 401 | 503; body: { error: { code: string; message: string } } };

export type HeaderOutcome = { ok: true; header: SignatureHeader } | { ok: false; refusal: IntakeOutcome };

@Injectable()
export class IntakeService {
  private readonly logger = new Logger(IntakeService.name);
  private readonly batcher: InboxBatcher;

  constructor(
    @Inject(INTAKE_DB) dataSource: DataSource,
    private readonly secrets: WebhookSecretsService,
    private readonly metrics: EngineMetrics,
    private readonly events: EventsQueue,
    private readonly journal: ContactJournalRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // One insert in flight per connection of the intake's pool.
    this.batcher = new InboxBatcher(
      dataSource,
      (rows, batchKey) => this.enqueue(rows, batchKey),
      config.intakeDbPoolSize,
    );
  }

  /** Before the body is read: a missing, unreadable or stale signature header is refused at once. */
  checkHeader(signature: string | undefined): HeaderOutcome {
    const check = checkSignatureHeader(signature);
    return check.ok ? check : { ok: false, refusal: this.refused(check.reason) };
  }

  /** The body of a delivery whose header passed checkHeader: signature, JSON, shape, then storage. */
  async accept(rawBody: Buffer, header: SignatureHeader): Promise<IntakeOutcome> {
    let secrets: string[];
    try {
      secrets = await this.secrets.secrets();
    } catch {
      return this.unavailable('secrets');
    }
    const check = matchSignature(header, rawBody, secrets);
    if (!check.ok) return this.refused(check.reason);
    // One pass over the bytes before JSON.parse: a value this deep breaks every recursive reader later.
    if (!withinJsonDepth(rawBody)) {
      this.metrics.events.inc({ outcome: 'refused_depth' });
      return {
        status: 400,
        body: { error: { code: 'too_deep', message: `JSON nests deeper than ${MAX_JSON_DEPTH} levels` } },
      };
    }
    let payload: Record<string, unknown>;
    const text = rawBody.toString('utf8');
    try {
      payload = JSON.parse(text);
    } catch {
      this.metrics.events.inc({ outcome: 'refused_json' });
      return { status: 400, body: { error: { code: 'invalid_json', message: 'body is not valid JSON' } } };
    }
    if (
      !payload ||
      typeof payload !== 'object' ||
      Array.isArray(payload) ||
      typeof payload.type !== 'string'
    ) {
      this.metrics.events.inc({ outcome: 'refused_shape' });
      return {
        status: 400,
        body: { error: { code: 'invalid_event', message: 'body must be an object with a string "type"' } },
      };
    }
    const contact = contactIdOf(payload);
    if (!contact.ok) {
      this.metrics.events.inc({ outcome: 'refused_shape' });
      this.logger.warn(`refused webhook delivery: ${contact.reason}`);
      return { status: 400, body: { error: { code: 'invalid_event', message: contact.reason } } };
    }
    return this.store(payload, rawBody, text, contact.contactId);
  }

  /**
   * A verified delivery of a custom source (custom-intake.service.ts), stored like the CRM's:
   * same inbox, deduplication by `payload.id`, ledger and enqueueing.
   */
  storeVerified(
    payload: Record<string, unknown> & { type: string; id: string },
    text: string,
  ): Promise<IntakeOutcome> {
    return this.store(payload, Buffer.from(text), text, null);
  }

  private refused(reason: string): IntakeOutcome {
    this.metrics.events.inc({ outcome: 'refused_signature' });
    this.logger.warn(`refused webhook delivery: ${reason}`);
    // The reason is safe to return (it reveals nothing about the secret) and helps whoever
    // configures the subscription; the body is never echoed.
    return {
      status: 401,
      body: { error: { code: 'invalid_signature', message: `signature rejected: ${reason}` } },
    };
  }

  private async store(
    payload: Record<string, unknown>,
    rawBody: Buffer,
    bodyText: string,
    contactId: string | null,
  ): Promise<IntakeOutcome> {
    let stored: Stored;
    const text = storableJson(bodyText);
    try {
      stored = await this.batcher.store({
        key: eventKeyOf(payload, rawBody),
        type: payload.type as string,
        payloadJson: text.json,
        rawBody: text.raw,
        contactId,
        eventAt: eventTimeOf(payload),
      });
    } catch (err) {
      if (err instanceof UnstorablePayloadError) {
        this.metrics.events.inc({ outcome: 'refused_unstorable' });
        return {
          status: 400,
          body: {
            error: {
              code: 'invalid_event',
              message:
                'event payload cannot be stored (JSON Postgres refuses, e.g. a lone surrogate or nesting too deep)',
            },
          },
        };
      }
      return this.unavailable('postgres', err);
    }
    this.metrics.events.inc({ outcome: stored.duplicate ? 'duplicate' : 'accepted' });
    // The inbox keeps one row per event: a redelivery is seen only here, so the timeline notes it.
    if (stored.duplicate && contactId)
      this.journal.note({
        contactId,
        kind: 'delivery.duplicate',
        detail: { type: payload.type, eventKey: eventKeyOf(payload, rawBody) },
      });
    return { status: 200, body: { received: true, duplicate: stored.duplicate, id: stored.id } };
  }

  /** Committed first, enqueued second: if Redis is down the reconciler enqueues them later. */
  private enqueue(rows: { id: string }[], batchKey: string): void {
    this.events
      .addIntakeBatch(
        rows.map(({ id }) => id),
        batchKey,
      )
      .catch((err) =>
        this.logger.warn(
          `${rows.length} event(s) stored but not enqueued (reconciler will retry): ${err.message}`,
        ),
      );
  }

  private unavailable(what: string, err?: unknown): IntakeOutcome {
    this.metrics.events.inc({ outcome: 'unavailable' });
    this.logger.error(`intake unavailable (${what}): ${err instanceof Error ? err.message : ''}`);
    return {
      status: 503,
      body: { error: { code: 'unavailable', message: 'storage unavailable; retry later' } },
    };
  }
}
