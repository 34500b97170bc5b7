// The load generator of bench:throughput, in its own process: posts `amount` signed
// contact.updated deliveries, each for a mirrored contact (round robin from a random start), and
// sends autocannon's result back. Mode `no-action`: no rule matches. Mode `guarded`: the rule
// matches and its add-tag finds the tag already there (guard no_change: no CRM call).
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import type { Contact } from '@crm-rules/crm-contract';
import { contactUpdateBody, signedRequests } from './contact-update-load';

const [url, secret, mode, amount, connections, contactsFile, vipTagId] = process.argv.slice(2);
const contacts = JSON.parse(readFileSync(contactsFile, 'utf8')) as Contact[];
let next = Math.floor(Math.random() * contacts.length);

function payload(): string {
  return contactUpdateBody(contacts[next++ % contacts.length], mode === 'guarded', vipTagId);
}

autocannon(
  {
    url,
    method: 'POST',
    connections: Number(connections),
    amount: Number(amount),
    headers: { 'content-type': 'application/json' },
    requests: signedRequests(secret, payload),
  },
  (err, result) => {
    process.send!(err ? { error: String(err) } : result, () => process.exit(0));
  },
);
