import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ContactJournalRepository } from '../console/journal/contact-journal.repository';
import { EngineMetrics } from '../ops/engine-metrics';
import { EVENTS_QUEUE, EventJobData, eventJobId } from '../queues/queues';
import { InboxBatcher, Stored, UnstorablePayloadError } from './inbox-batcher';
import { verifySignature } from './verify-signature';
import { WebhookSecretsService } from './webhook-secrets.service';

export type IntakeOutcome =
  | { status: 200; body: { received: true; duplicate: boolean; id: string } }
  | { status: 400 | 401 | 503; body: { error: { code: string; message: string } } };

/** Derives the deduplication key: the CRM's event id, or a hash of the exact bytes. */
export function eventKeyOf(payload: Record<string, unknown>, rawBody: Buffer): string {
  if (typeof payload.id === 'string' && payload.id.length > 0) return `id:${payload.id}`;
  return `sha256:${createHash('sha256').update(rawBody).digest('hex')}`;
}

function contactIdOf(payload: Record<string, unknown>): string | null {
  const data = payload.data as Record<string, unknown> | undefined;
  if (!data || typeof data !== 'object') return null;
  if (typeof payload.type === 'string' && payload.type.startsWith('contact.') && typeof data.id === 'string')
    return data.id;
  return typeof data.contactId === 'string' ? data.contactId : null;
}

@Injectable()
export class IntakeService {
  private readonly logger = new Logger(IntakeService.name);
  private readonly batcher: InboxBatcher;

  constructor(
    private readonly dataSource: DataSource,
    private readonly secrets: WebhookSecretsService,
    private readonly metrics: EngineMetrics,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue<EventJobData>,
    private readonly journal: ContactJournalRepository,
  ) {
    this.batcher = new InboxBatcher(dataSource, (rows) => this.enqueue(rows));
  }

  async accept(rawBody: Buffer, signature: string | undefined): Promise<IntakeOutcome> {
    let secrets: string[];
    try {
      secrets = await this.secrets.secrets();
    } catch {
      return this.unavailable('secrets');
    }
    const check = verifySignature(signature, rawBody, secrets);
    if (!check.ok) {
      this.metrics.events.inc({ outcome: 'refused_signature' });
      this.logger.warn(`refused webhook delivery: ${check.reason}`);
      // The reason is safe to return (it reveals nothing about the secret) and helps whoever
      // configures the subscription; the body is never echoed.
      return {
        status: 401,
        body: { error: { code: 'invalid_signature', message: `signature rejected: ${check.reason}` } },
      };
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
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
    return this.store(payload, rawBody);
  }

  private async store(payload: Record<string, unknown>, rawBody: Buffer): Promise<IntakeOutcome> {
    let stored: Stored;
    try {
      stored = await this.batcher.store({
        key: eventKeyOf(payload, rawBody),
        type: payload.type as string,
        payloadJson: rawBody.toString('utf8'),
        contactId: contactIdOf(payload),
      });
    } catch (err) {
      if (err instanceof UnstorablePayloadError) {
        this.metrics.events.inc({ outcome: 'refused_unstorable' });
        return {
          status: 400,
          body: {
            error: {
              code: 'invalid_event',
              message: 'event payload cannot be stored (invalid JSON text for Postgres)',
            },
          },
        };
      }
      return this.unavailable('postgres', err);
    }
    this.metrics.events.inc({ outcome: stored.duplicate ? 'duplicate' : 'accepted' });
    const contactId = contactIdOf(payload);
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
  private enqueue(rows: { id: string }[]): void {
    this.events
      .addBulk(
        rows.map(({ id }) => ({
          name: 'event',
          data: { inboxEventId: id, correlationId: randomUUID() },
          opts: { jobId: eventJobId(id) },
        })),
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
