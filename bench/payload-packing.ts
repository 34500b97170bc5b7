// npm run bench:packing — what packing an unmatched event's payload costs and saves
// (src/persistence/ledger/packed-payload.ts, issue 35 goal 1): bytes of the JSON text against the
// packed bytes, and the CPU per pack (the events worker, once per event that leaves no run) and per
// unpack (a reader: the event page, explain, the export), on contact.updated deliveries shaped as
// bench:throughput sends them. CPU from process.cpuUsage over many calls: a benchmark, not a test.
import { randomUUID } from 'node:crypto';
import type { Contact } from '@crm-rules/crm-contract';
import { packPayload, unpackPayload } from '../src/persistence/ledger/packed-payload';
import { contactUpdateBody } from './contact-update-load';
import { printTable } from './bench-support';

const EVENTS = Number(process.env.BENCH_PACK_EVENTS ?? 2_000);
const ROUNDS = 5;

function contact(i: number): Contact {
  const at = new Date(Date.now() - i * 60_000).toISOString();
  return {
    id: randomUUID(),
    name: `Bench ${i}`,
    phone: `1415010${String(i).padStart(6, '0')}`,
    email: i % 3 ? null : `bench${i}@example.com`,
    avatar: null,
    notes: null,
    status: 'active',
    isBlocked: false,
    sourceMethod: 'WIDGET',
    assigneeId: i % 2 ? randomUUID() : null,
    stageId: randomUUID(),
    tags: [{ id: randomUUID(), name: 'new-contact', color: '#03a9f4' }],
    customFields: { plan: 'free' },
    createdAt: at,
    updatedAt: at,
    lastInteractionAt: at,
  };
}

/** CPU microseconds per call of `fn` over every payload, the best of ROUNDS (the least disturbed). */
function cpuPerCall<T>(items: readonly T[], fn: (item: T) => unknown): number {
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage();
    for (const item of items) fn(item);
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / items.length);
  }
  return best;
}

function main(): void {
  // Each with a fresh event id and random ids: no help from repeats across events.
  const payloads = Array.from(
    { length: EVENTS },
    (_, i) => JSON.parse(contactUpdateBody(contact(i), false, randomUUID())) as Record<string, unknown>,
  );
  const packed = payloads.map((p) => packPayload(p));
  const textBytes = payloads.reduce((n, p) => n + Buffer.byteLength(JSON.stringify(p)), 0) / EVENTS;
  const packedBytes = packed.reduce((n, b) => n + b.length, 0) / EVENTS;
  const packUs = cpuPerCall(payloads, packPayload);
  const unpackUs = cpuPerCall(packed, unpackPayload);
  console.log(`\n${EVENTS} contact.updated payloads, best of ${ROUNDS} rounds\n`);
  printTable([
    {
      'JSON text bytes': textBytes.toFixed(0),
      'packed bytes': packedBytes.toFixed(0),
      'packed/text': (packedBytes / textBytes).toFixed(2),
      'pack µs CPU': packUs.toFixed(1),
      'unpack µs CPU': unpackUs.toFixed(1),
    },
  ]);
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      bench: 'packing',
      text_bytes: Math.round(textBytes),
      packed_bytes: Math.round(packedBytes),
      pack_us: Number(packUs.toFixed(1)),
      unpack_us: Number(unpackUs.toFixed(1)),
    })}`,
  );
}

main();
