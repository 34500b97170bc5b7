// The rules benchmark's fixture: 500 rules over 10 event kinds, written the way ops write them
// (source, status, tags, recency, text patterns, nested any/not), and a seeded event stream.
import { EVENT_KINDS, SOURCE_METHODS } from '@crm-rules/crm-contract';
import type { EvaluationFacts } from '../src/language/rules/format/rule-types';

export const RULES = 500;
export const KINDS = EVENT_KINDS.slice(0, 10);
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

export function generateRules(count = RULES, kinds: readonly string[] = KINDS): string {
  return Array.from({ length: count }, (_, i) => {
    const kind = kinds[i % kinds.length];
    const conds = conditionsFor(kind, i);
    return `rule: bench-${i}\non: ${kind}\npriority: ${i % 7}\nif:\n  all:\n${conds.map((c) => `    - ${c}`).join('\n')}\ndo: [${actionFor(kind, i)}]\n`;
  }).join('---\n');
}

export function generateEvent(): EvaluationFacts {
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
