import { randomUUID } from 'node:crypto';
import { signatureHeader } from '../../src/language/net/verify-signature';
import { request } from './http';

export const TEST_WEBHOOK_SECRET = 'whsec_e2e_test_secret_0123456789abcdef';

export function contactEvent(
  type: string,
  contact: Record<string, unknown>,
  id: string | null = `evt_${randomUUID()}`,
) {
  return { ...(id ? { id } : {}), type, createdAt: new Date().toISOString(), data: contact };
}

/** An incoming message from the contact, as the CRM's message.created webhook carries it. */
export const messageEvent = (contactId: string) => ({
  id: `evt_${randomUUID()}`,
  type: 'message.created',
  createdAt: new Date().toISOString(),
  data: { id: randomUUID(), conversationId: randomUUID(), contactId, direction: 'incoming', text: 'hi' },
});

export async function deliver(
  engineUrl: string,
  body: string,
  opts: { secret?: string; nowSeconds?: number; header?: string | null } = {},
): Promise<{ status: number; json: any }> {
  const header =
    opts.header === undefined
      ? signatureHeader(opts.secret ?? TEST_WEBHOOK_SECRET, body, opts.nowSeconds)
      : opts.header;
  const res = await request(`${engineUrl}/webhooks/crm`, 'POST', {
    rawBody: body,
    headers: header === null ? {} : { 'x-service-signature': header },
  });
  return { status: res.status, json: res.body };
}
