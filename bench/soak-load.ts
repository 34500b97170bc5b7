// The load generator of bench:soak, in its own process: signed contact.updated deliveries at a
// fixed overall rate (autocannon's overallRate) for a duration, each for a mirrored contact.
// One in GUARDED_EVERY is a guarded no-op (the rule matches, its add-tag finds the tag there), the
// rest match no rule. Reports the deliveries and their 2xx answers every `tick` seconds to the
// parent, then autocannon's result.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import type { Contact } from '@crm-rules/crm-contract';
import { contactUpdateBody, signedRequests } from './contact-update-load';

const [url, secret, rate, seconds, connections, contactsFile, vipTagId, tick] = process.argv.slice(2);
const contacts = JSON.parse(readFileSync(contactsFile, 'utf8')) as Contact[];
const GUARDED_EVERY = 10;
let next = Math.floor(Math.random() * contacts.length);
let sent = 0;

function payload(): string {
  return contactUpdateBody(contacts[next++ % contacts.length], ++sent % GUARDED_EVERY === 0, vipTagId);
}

const counts = { answered: 0, ok: 0, errors: 0 };
const instance = autocannon(
  {
    url,
    method: 'POST',
    connections: Number(connections),
    overallRate: Number(rate),
    duration: Number(seconds),
    headers: { 'content-type': 'application/json' },
    requests: signedRequests(secret, payload),
  },
  (err, result) => {
    clearInterval(ticker);
    process.send!(err ? { error: String(err) } : { result, counts }, () => process.exit(0));
  },
);
instance.on('response', (_client, status) => {
  counts.answered++;
  if (status >= 200 && status < 300) counts.ok++;
});
instance.on('reqError', () => counts.errors++);
// The counts so far, cumulative: the parent takes differences per interval.
const ticker = setInterval(() => process.send!({ tick: { ...counts } }), Number(tick) * 1000);
