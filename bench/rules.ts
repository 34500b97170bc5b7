// npm run bench:rules — the matcher (CompiledRuleSet.evaluateEvent: rules indexed by trigger,
// conditions compiled once) against a naive baseline (one json-rules-engine Engine holding all
// 500 rules, `path` facts resolved by JSONPath, the event kind as one more condition), on the
// same stream of events. Prints events/s and p50/p99 per event for both. Real time: a benchmark,
// not a test.
import { Engine } from 'json-rules-engine';
import { EVENT_KINDS, SOURCE_METHODS } from '../src/crm/crm-types';
import { buildReferenceEngine } from '../src/matching/compiled-rule-set';
import { formatProblems } from '../src/rules/format-problems';
import { loadRulesFromFiles } from '../src/rules/load-rules';
import type { EvaluationFacts, RuleDefinition } from '../src/rules/rule-types';
import { percentile } from './stats';

const RULES = 500;
const KINDS = EVENT_KINDS.slice(0, 10);
const MATCHER_EVENTS = Number(process.env.BENCH_MATCHER_EVENTS ?? 20_000);
const BASELINE_EVENTS = Number(process.env.BENCH_BASELINE_EVENTS ?? 300);
const NOW = new Date('2024-05-01T12:00:00Z');

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const uuid = () =>
  'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => Math.floor(random() * 16).toString(16));
const TAGS = ['vip', 'new-contact', 'ad-lead', 'dormant', 'customer', 'thanked', 'gold', 'churn-risk'];
const WORDS = ['order', 'refund', 'invoice', 'price', 'delivery', 'cancel', 'hello', 'pedido'];
const STAGES = Array.from({ length: 5 }, uuid);

/** Conditions ops write: source, status, tags, recency, text patterns, nested any/not. */
function conditionsFor(kind: string, i: number): string[] {
  const contact = [
    `{ fact: contact.sourceMethod, operator: in, value: [${pick(SOURCE_METHODS)}, ${pick(SOURCE_METHODS)}] }`,
    `{ fact: contact.status, operator: equal, value: active }`,
    `{ fact: contact.isBlocked, operator: equal, value: false }`,
    `{ fact: contact, operator: ${random() < 0.5 ? 'hasTag' : 'not:hasTag'}, value: ${pick(TAGS)} }`,
    `{ fact: contact.createdAt, operator: newerThan, value: ${1 + (i % 30)}d }`,
    `{ fact: contact.stageId, operator: equal, value: ${pick(STAGES)} }`,
    `{ any: [{ fact: contact.customFields.plan, operator: equal, value: pro }, { fact: contact.assigneeId, operator: exists, value: false }] }`,
  ];
  if (kind.startsWith('contact.')) return [pick(contact), pick(contact), pick(contact)];
  if (kind.startsWith('message.')) {
    return [
      `{ fact: message.isOutgoing, operator: equal, value: false }`,
      `{ fact: message.text, operator: matches, value: "(?i)\\\\b(${pick(WORDS)}|${pick(WORDS)})\\\\b" }`,
      pick(contact),
      `{ fact: contact.assigneeId, operator: exists, value: true }`,
    ];
  }
  if (kind.startsWith('broadcast.'))
    return [
      `{ fact: event.data.failedCount, operator: greaterThan, value: ${i % 50} }`,
      `{ fact: event.data.name, operator: matches, value: "(?i)promo" }`,
    ];
  if (kind.startsWith('channel.'))
    return [`{ fact: event.data.status, operator: equal, value: disconnected }`];
  return [
    `{ fact: event.data.status, operator: in, value: [REJECTED, PAUSED] }`,
    `{ fact: event.data.name, operator: notEqual, value: tpl-${i} }`,
  ];
}

function actionFor(kind: string, i: number): string {
  if (kind.startsWith('message.')) return i % 2 ? `{ react: "👍" }` : `{ add-tag: bench-${i} }`;
  if (kind.startsWith('contact.') && kind !== 'contact.deleted') return `{ add-tag: bench-${i} }`;
  return `{ create-segment: { name: bench-${i}, filters: { status: active } } }`;
}

function generateRules(): string {
  return Array.from({ length: RULES }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    const conds = conditionsFor(kind, i);
    return `rule: bench-${i}\non: ${kind}\npriority: ${i % 7}\nif:\n  all:\n${conds.map((c) => `    - ${c}`).join('\n')}\ndo: [${actionFor(kind, i)}]\n`;
  }).join('---\n');
}

function generateEvent(): EvaluationFacts {
  const kind = pick(KINDS);
  const contact = {
    id: uuid(),
    name: 'Bench Contact',
    phone: '351912345678',
    email: null,
    status: random() < 0.9 ? 'active' : 'archived',
    isBlocked: random() < 0.05,
    sourceMethod: pick(SOURCE_METHODS),
    assigneeId: random() < 0.7 ? uuid() : null,
    stageId: random() < 0.5 ? pick(STAGES) : null,
    tags: TAGS.filter(() => random() < 0.3).map((name) => ({ id: uuid(), name, color: '#000' })),
    customFields: { plan: random() < 0.3 ? 'pro' : 'free' },
    createdAt: new Date(NOW.getTime() - random() * 40 * 86_400_000).toISOString(),
    updatedAt: NOW.toISOString(),
    lastInteractionAt: null,
  };
  const message = {
    id: uuid(),
    conversationId: uuid(),
    contactId: contact.id,
    messagePlatformId: 'wamid.x',
    isOutgoing: random() < 0.3,
    text: `Hi, ${pick(WORDS)} about my ${pick(WORDS)} please`,
    type: 'text',
    createdAt: NOW.toISOString(),
  };
  const other = {
    id: uuid(),
    name: `promo-${Math.floor(random() * 9)}`,
    status: pick(['APPROVED', 'REJECTED', 'PAUSED', 'connected', 'disconnected']),
    failedCount: Math.floor(random() * 60),
  };
  const data = kind.startsWith('contact.') ? contact : kind.startsWith('message.') ? message : other;
  const facts: EvaluationFacts = {
    event: { id: uuid(), type: kind, createdAt: NOW.toISOString(), data },
    now: NOW,
  };
  if (kind.startsWith('contact.') || kind.startsWith('message.')) facts.contact = contact;
  if (kind.startsWith('message.')) facts.message = message;
  return facts;
}

/** The naive way: every rule in one Engine, its trigger as a first condition. */
function naiveEngine(rules: readonly RuleDefinition[]): Engine {
  const withKind = rules.map((r) => ({
    ...r,
    conditions: {
      all: [
        {
          fact: 'event',
          path: '$.type',
          operator: 'in',
          value: r.trigger.kind === 'event' ? r.trigger.events : [],
        },
        r.conditions ?? { all: [] },
      ],
    },
  }));
  return buildReferenceEngine(withKind);
}

async function measure(
  name: string,
  events: EvaluationFacts[],
  count: number,
  run: (f: EvaluationFacts) => Promise<unknown>,
) {
  for (let i = 0; i < Math.min(200, count); i++) await run(events[i % events.length]); // warm-up
  const times: number[] = [];
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await run(events[i % events.length]);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return {
    name,
    events: count,
    perSecond: count / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
}

async function main(): Promise<void> {
  const loaded = loadRulesFromFiles([{ path: 'bench/rules.yaml', text: generateRules() }]);
  if (!loaded.ruleSet)
    throw new Error(`generated rules do not validate:\n${formatProblems(loaded.problems, 'text')}`);
  const set = loaded.ruleSet;
  const events = Array.from({ length: 2000 }, generateEvent);
  const engine = naiveEngine(set.rules);

  // Both must decide the same thing before their speed means anything.
  for (const facts of events.slice(0, 50)) {
    const ours = (await set.evaluateEvent(facts))
      .filter((e) => e.matched)
      .map((e) => e.ruleId)
      .sort();
    const theirs = (await engine.run({ ...facts })).results.map((r) => r.name).sort();
    if (JSON.stringify(ours) !== JSON.stringify(theirs))
      throw new Error(`matcher and baseline disagree on ${facts.event.type}: ${ours} vs ${theirs}`);
  }

  const matcher = await measure('matcher (CompiledRuleSet.evaluateEvent)', events, MATCHER_EVENTS, (f) =>
    set.evaluateEvent(f),
  );
  const baseline = await measure(
    'baseline (one json-rules-engine Engine, 500 rules)',
    events,
    BASELINE_EVENTS,
    (f) => engine.run({ ...f }),
  );
  const fmt = (n: number, d = 3) => n.toFixed(d).padStart(10);
  console.log(
    `${RULES} rules over ${KINDS.length} event kinds; same event stream for both (node ${process.version})`,
  );
  console.log(
    `${'engine'.padEnd(52)} ${'events'.padStart(8)} ${'events/s'.padStart(10)} ${'p50 ms'.padStart(10)} ${'p99 ms'.padStart(10)}`,
  );
  for (const r of [matcher, baseline]) {
    console.log(
      `${r.name.padEnd(52)} ${String(r.events).padStart(8)} ${fmt(r.perSecond, 0)} ${fmt(r.p50)} ${fmt(r.p99)}`,
    );
  }
  const ratio = matcher.perSecond / baseline.perSecond;
  console.log(
    `matcher / baseline: ${ratio.toFixed(0)}x events/s (target >= 50x) ${ratio >= 50 ? 'OK' : 'BELOW TARGET'}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
