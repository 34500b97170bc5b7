// Webhook subscriptions (docs/CRM-API.md §4.9 and A16): the secret is returned by the
// create call only; lists never show it; a second DELETE is a 404.
import { randomBytes, randomUUID } from 'node:crypto';
import { EVENT_KINDS } from '@crm-rules/crm-contract';
import { arrayOf, enumCheck } from '@crm-rules/crm-contract';
import { checkBody, urlCheck } from './input-checks';
import { mustFind } from './lookups';
import type { OpContext, WebhookRecord } from './sandbox-state';
import { webhookView } from './views';

const CREATE_SHAPE = { url: urlCheck(), events: arrayOf(enumCheck(EVENT_KINDS), undefined, 1) };

export function createWebhook(ctx: OpContext, body: unknown) {
  const input = checkBody<{ url: string; events: string[] }>(body, CREATE_SHAPE, ['url', 'events']);
  const record: WebhookRecord = {
    id: randomUUID(),
    url: input.url,
    events: [...new Set(input.events)],
    secret: `whsec_${randomBytes(24).toString('hex')}`,
    enabled: true,
    consecutiveFailures: 0,
    createdAt: ctx.now().toISOString(),
    disabledAt: null,
  };
  ctx.org.webhooks.set(record.id, record);
  return { ...webhookView(record), secret: record.secret };
}

export function listWebhooks(ctx: OpContext) {
  return { data: [...ctx.org.webhooks.values()].map(webhookView) };
}

export function deleteWebhook(ctx: OpContext, id: string): { success: true; id: string } {
  mustFind(ctx.org, 'webhooks', id);
  ctx.org.webhooks.delete(id);
  return { success: true, id };
}
