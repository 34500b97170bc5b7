// The load generator of bench:throughput, in its own process: posts `amount` signed
// contact.updated deliveries, each for a mirrored contact (round robin from a random start), and
// sends autocannon's result back. Mode `no-action`: no rule matches. Mode `guarded`: the rule
// matches and its add-tag finds the tag already there (guard no_change: no CRM call).
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Contact } from '@crm-rules/crm-contract';
import { signatureHeader } from '../src/language/net/verify-signature';

const [url, secret, mode, amount, connections, contactsFile, vipTagId] = process.argv.slice(2);
const contacts = JSON.parse(readFileSync(contactsFile, 'utf8')) as Contact[];
let next = Math.floor(Math.random() * contacts.length);

function payload(): string {
  const contact = contacts[next++ % contacts.length];
  const guarded = mode === 'guarded';
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

autocannon(
  {
    url,
    method: 'POST',
    connections: Number(connections),
    amount: Number(amount),
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => {
          const body = payload();
          return {
            ...req,
            body,
            headers: { ...req.headers, 'x-service-signature': signatureHeader(secret, body) },
          };
        },
      },
    ],
  },
  (err, result) => {
    process.send!(err ? { error: String(err) } : result, () => process.exit(0));
  },
);
