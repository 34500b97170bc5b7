// What the load generators of bench:throughput and bench:soak send: a signed contact.updated
// delivery for a mirrored contact, either matching no rule or a guarded no-op (tp-upgrade matches
// and its add-tag finds the tag already there: no CRM call).
import type { Request } from 'autocannon';
import { randomUUID } from 'node:crypto';
import type { Contact } from '@crm-rules/crm-contract';
import { signatureHeader } from '../src/language/net/verify-signature';

export function contactUpdateBody(contact: Contact, guarded: boolean, vipTagId: string): string {
  const data: Contact = {
    ...contact,
    status: 'active', // tp-archived never matches: only tp-upgrade decides between the modes
    customFields: { ...contact.customFields, plan: guarded ? 'enterprise' : 'free' },
    tags: guarded
      ? [...contact.tags.filter((t) => t.id !== vipTagId), { id: vipTagId, name: 'vip', color: '#000' }]
      : contact.tags,
    updatedAt: new Date().toISOString(),
  };
  return JSON.stringify({
    id: `evt_${randomUUID()}`,
    type: 'contact.updated',
    createdAt: data.updatedAt,
    data,
  });
}

/** autocannon's `requests`: each request gets a fresh body and its signature header. */
export function signedRequests(secret: string, body: () => string): Request[] {
  return [
    {
      setupRequest: (req) => {
        const text = body();
        return {
          ...req,
          body: text,
          headers: { ...req.headers, 'x-service-signature': signatureHeader(secret, text) },
        };
      },
    },
  ];
}
