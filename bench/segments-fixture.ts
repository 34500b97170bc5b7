// The sandbox fixture of the segments benchmark: the demo organization plus generated contacts
// with varied tags, stages, statuses, phones and dates (seeded, so every run sees the same CRM).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DEMO_FIXTURE_PATH, type SandboxFixture } from '@crm-rules/crm-sandbox';

const TAGS = ['vip', 'customer', 'ad-lead', 'new-contact'];
const STAGES = ['New lead', 'Qualified', 'Customer', null];
const SOURCES = ['MANUAL', 'IMPORT', 'WIDGET', 'MSG_API_AD', 'SOCIAL_A'];
const PHONES = ['5511', '5521', '35191', '1415', '4479', '4915', '3361'];

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function segmentsFixture(total: number, now: Date, seed = 7): SandboxFixture {
  const fixture = parse(readFileSync(DEMO_FIXTURE_PATH, 'utf8')) as SandboxFixture;
  const org = fixture.organizations[0];
  const demo = org.contacts ?? [];
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)];
  const generated = Array.from({ length: Math.max(0, total - demo.length) }, (_, i) => {
    const prefix = pick(PHONES);
    return {
      name: `Bench ${i}`,
      phone: prefix + String(10_000_000 + i).padStart(13 - prefix.length, '0'),
      status: rnd() < 0.8 ? ('active' as const) : ('archived' as const),
      isBlocked: rnd() < 0.1,
      sourceMethod: pick(SOURCES),
      stage: pick(STAGES),
      tags: TAGS.filter(() => rnd() < 0.3),
      createdAt: new Date(now.getTime() - Math.floor(rnd() * 730) * 86400e3 - i).toISOString(),
      ...(rnd() < 0.7
        ? { lastInteractionAt: new Date(now.getTime() - Math.floor(rnd() * 120) * 86400e3).toISOString() }
        : {}),
    };
  });
  org.contacts = [...demo, ...generated];
  return fixture;
}
