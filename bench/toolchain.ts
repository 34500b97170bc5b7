// Offline toolchain figures (docs/BENCHMARKS.md "Toolchain"): `forecast` of a 100k-contact file
// (parse + segment filters + guards, 5 segment rules) and `diff` of 100k recorded events through
// 500 rules, once with one rule changed (what a pull request does) and once with all 500 changed
// (worst case: every rule replayed on both sides). Targets: ≤ 2 s and ≤ 30 s. Both read their
// input from text, as the CLI does: the contacts file in the format the engine's export writes,
// the events file parsed inside the diff's timing.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { formatProblems } from '../src/language/rules/format/format-problems';
import { loadRulesFromFiles } from '../src/language/rules/format/load-rules';
import type { RuleDefinition } from '../src/language/rules/format/rule-types';
import { contactLine, contactsHeader, parseContactsFile } from '../src/tooling/toolchain/contacts-file';
import { emptySnapshot } from '../src/language/crm-terms/crm-snapshot';
import { forecast } from '../src/tooling/toolchain/forecast';
import {
  eventLine,
  eventsHeader,
  parseEventsFile,
  type RecordedEvent,
} from '../src/tooling/toolchain/recorded-events';
import { diffRuleSets } from '../src/tooling/toolchain/rule-diff';
import { SnapshotDirectory } from '../src/tooling/toolchain/snapshot-directory';
import { toMirroredContact } from '../src/language/crm-terms/mirrored-contact';
import type { Contact } from '@crm-rules/crm-contract';
import { generateEvent, generateRules } from './rules-fixture';
import { printTable } from './bench-support';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const NOW = new Date('2024-05-01T12:00:00Z');
const TAGS = ['vip', 'dormant', 'customer', 'churn-risk'].map((name, i) => ({
  id: `7a000000-0000-4000-8000-00000000000${i}`,
  name,
}));

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

function contactsText(): string {
  const lines = [contactsHeader('bench', NOW)];
  // One country lookup per distinct phone prefix is what the mirror pays; the file carries it.
  const country = toMirroredContact({
    id: 'x',
    phone: '351912345678',
    createdAt: NOW.toISOString(),
  } as Contact).country;
  for (let i = 0; i < CONTACTS; i++) {
    const day = 86_400_000;
    const tags = TAGS.filter(() => random() < 0.2).map((t) => ({ ...t, color: '' }));
    lines.push(
      contactLine({
        id: `c${String(i).padStart(8, '0')}`,
        name: `Contact ${i}`,
        phone: '351912345678',
        email: null,
        avatar: null,
        notes: null,
        status: random() < 0.9 ? 'active' : 'archived',
        isBlocked: random() < 0.05,
        sourceMethod: random() < 0.5 ? 'MANUAL' : 'MSG_API_AD',
        assigneeId: random() < 0.6 ? 'a0000000-0000-4000-8000-000000000001' : null,
        stageId: null,
        tagIds: tags.map((t) => t.id),
        tags,
        customFields: { plan: random() < 0.3 ? 'pro' : 'free' },
        country,
        createdAt: new Date(NOW.getTime() - random() * 400 * day),
        updatedAt: NOW,
        lastInteractionAt: random() < 0.8 ? new Date(NOW.getTime() - random() * 90 * day) : null,
      }),
    );
  }
  return lines.join('');
}

const SEGMENT_RULES = [
  ['dormant', 'lastInteractionBefore: now-30d\n      status: active', 'add-tag: dormant'],
  [
    'vip-ads',
    'sourceMethods: [MSG_API_AD]\n      tagIds: [7a000000-0000-4000-8000-000000000000]',
    'add-tag: customer',
  ],
  ['churn', 'lastInteractionBefore: now-60d\n      isBlocked: false', 'add-tag: churn-risk'],
  ['pro', 'customFieldFilters: [{ fieldKey: plan, values: [pro] }]', 'remove-tag: churn-risk'],
  ['new', 'createdAfter: now-14d', 'add-tag: vip'],
]
  .map(
    ([id, filters, action]) =>
      `rule: seg-${id}\non:\n  schedule: '0 6 * * *'\n  segment:\n    filters:\n      ${filters}\nwhen: entered\ndo:\n  - ${action}\n`,
  )
  .join('---\n');

function load(text: string): RuleDefinition[] {
  const loaded = loadRulesFromFiles([{ path: 'bench.yaml', text }]);
  if (!loaded.ruleSet) throw new Error(formatProblems(loaded.problems, 'text'));
  return [...loaded.ruleSet.rules];
}

/** Wall time, and the process' CPU time (user + system, GC threads included) beside it: on a
 * machine shared with other work the CPU time says what the code costs, the wall time what it
 * took. */
let lastCpuMs = 0;
async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  lastCpuMs = Math.round((used.user + used.system) / 1000);
  return [result, performance.now() - t0];
}

async function main(): Promise<void> {
  const rows: Record<string, string | number>[] = [];

  const text = contactsText();
  const snapshot = { ...emptySnapshot('bench'), takenAt: NOW.toISOString(), tags: TAGS };
  const rules = load(SEGMENT_RULES);
  let parseMs = 0;
  const [f, forecastMs] = await time(async () => {
    const t0 = performance.now();
    const contacts = parseContactsFile(text, 'bench').contacts;
    parseMs = performance.now() - t0;
    return forecast({
      rules,
      contacts,
      directory: new SnapshotDirectory(snapshot),
      now: NOW,
      budget: { limit: 300, windowMs: 60_000, bulkMinShare: 0.2 },
      eventCallsPerMinute: 0,
    });
  });
  rows.push({
    measure: `forecast: parse ${CONTACTS} contacts (${(text.length / 1e6).toFixed(1)} MB) + 5 segment rules`,
    ms: Math.round(forecastMs),
    'cpu ms': lastCpuMs,
    result: `parse ${Math.round(parseMs)} ms; ${f.rules.map((r) => `${r.rule}=${r.members}`).join(' ')}`,
  });

  const base = load(generateRules());
  const events: RecordedEvent[] = Array.from({ length: EVENTS }, (_, i) => {
    const facts = generateEvent();
    return {
      id: `evt-${i}`,
      type: facts.event.type,
      createdAt: new Date(NOW.getTime() + i * 1000).toISOString(),
      data: (facts.event.data ?? {}) as Record<string, unknown>,
      contactId: (facts.contact?.id as string) ?? null,
      ...(facts.contact && !facts.event.type.startsWith('contact.') ? { contact: facts.contact } : {}),
    };
  });
  const eventsText = eventsHeader('bench', NOW, {}) + events.map(eventLine).join('');
  const oneChanged = base.map((r, i) => (i === 3 ? { ...r, version: `${r.version}-edited` } : r));
  const [one, oneMs] = await time(() => diffRuleSets(base, oneChanged, parseEventsFile(eventsText, 'bench')));
  rows.push({
    measure: `diff: parse ${EVENTS} events (${(eventsText.length / 1e6).toFixed(1)} MB) x ${base.length} rules, 1 rule changed`,
    ms: Math.round(oneMs),
    'cpu ms': lastCpuMs,
    result: `${one.rules[0].lost.runs + one.rules[0].gained.runs} run(s) differ (same definition: expect 0)`,
  });
  const allChanged = base.map((r) => ({ ...r, version: `${r.version}-edited` }));
  const [all, allMs] = await time(() => diffRuleSets(base, allChanged, parseEventsFile(eventsText, 'bench')));
  rows.push({
    measure: `diff: parse ${EVENTS} events x ${base.length} rules, all ${base.length} changed (full replay, both sides)`,
    ms: Math.round(allMs),
    'cpu ms': lastCpuMs,
    result: `${all.changedRules} rules compared, ${all.rules.filter((r) => r.lost.runs + r.gained.runs > 0).length} differ (expect 0)`,
  });
  console.log(
    `toolchain bench, node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  printTable(rows);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
