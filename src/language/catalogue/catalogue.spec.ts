// Every catalogue entry, table-driven: how its YAML parses and shows, what it emits and writes,
// where it can run, its guard and local effect (the gateway calls: catalogue-gateway-calls.spec.ts).
import type { Channel, Contact } from '@crm-rules/crm-contract';
import { loadRulesFromFiles } from '../rules/format/load-rules';
import type { RuleProblem } from '../rules/format/rule-types';
import {
  ACTION_DEFINITIONS,
  actionDefinition,
  actionLabel,
  type RuleAction,
  type ResolvedAction,
} from './catalogue';
import { runningMarkDurable } from './action-definition';
import { contactFixture } from '../../pipeline/execution/contact-fixture.spec-support';

const contact = (over: Partial<Contact> = {}): Contact =>
  contactFixture({ email: 'ana@x.test', customFields: { plan: 'opt-pro' }, ...over });
const channel = (status: Channel['status']): Channel => ({
  id: 'ch1',
  name: 'Main',
  platformType: 'MSG',
  status,
});

/** The actions of one rule `on` a trigger, or the problems. */
function parse(item: string, on = 'message.created'): { actions?: RuleAction[]; problems: RuleProblem[] } {
  // Inbound messages only: the rule's own messages must not re-trigger it (a loop).
  const inbound = on.startsWith('message.')
    ? 'if: { fact: message.isOutgoing, operator: equal, value: false }\n'
    : '';
  const text = `rule: r\non: ${on}\n${inbound}do:\n  - ${item}\n`;
  const { ruleSet, problems } = loadRulesFromFiles([{ path: 'r.yaml', text }]);
  return { actions: ruleSet?.rule('r')?.actions, problems };
}

describe('the catalogue', () => {
  it('has one entry per type, each with a schema, a label and a repeat class', () => {
    const types = ACTION_DEFINITIONS.map((d) => d.type);
    expect(new Set(types).size).toBe(types.length);
    for (const d of ACTION_DEFINITIONS) {
      expect(d.schema.description).toEqual(expect.any(String));
      expect(['state-checked', 'lookup-before-repeat', 'at-most-once', 'idempotent-by-key']).toContain(
        d.repeat,
      );
    }
  });

  it('classes every customer-facing write as at-most-once', () => {
    const atMostOnce = ACTION_DEFINITIONS.filter((d) => d.repeat === 'at-most-once').map((d) => d.type);
    expect(atMostOnce.sort()).toEqual(['react', 'send-message', 'send-template']);
    expect(actionDefinition('open-conversation').repeat).toBe('lookup-before-repeat');
  });

  it('keeps the running mark asynchronous only where a repeat is harmless', () => {
    const durable = Object.fromEntries(ACTION_DEFINITIONS.map((d) => [d.type, runningMarkDurable(d.repeat)]));
    // Every write that reaches a customer, or that a repeat could double, is marked durably.
    for (const type of ['send-message', 'send-template', 'react', 'open-conversation', 'http-request'])
      expect([type, durable[type]]).toEqual([type, true]);
    // The state-setting writes: a repeat finds the state already set.
    const relaxed = Object.keys(durable).filter((t) => !durable[t]);
    expect(relaxed.sort()).toEqual(
      ACTION_DEFINITIONS.filter((d) => d.repeat === 'state-checked')
        .map((d) => d.type)
        .sort(),
    );
    expect(relaxed).toEqual(expect.arrayContaining(['add-tag', 'remove-tag', 'move-stage', 'assign']));
  });

  it.each<[string, RuleAction, string]>([
    ['add-tag: vip', { type: 'add-tag', tag: 'vip' }, 'add-tag "vip"'],
    ['remove-tag: vip', { type: 'remove-tag', tag: 'vip' }, 'remove-tag "vip"'],
    ['move-stage: Qualified', { type: 'move-stage', stage: 'Qualified' }, 'move-stage "Qualified"'],
    ['move-stage: null', { type: 'move-stage', stage: null }, 'move-stage null'],
    ['assign: round-robin', { type: 'assign', member: 'round-robin' }, 'assign "round-robin"'],
    ['unassign', { type: 'unassign' }, 'unassign'],
    ['block', { type: 'block' }, 'block'],
    ['unblock', { type: 'unblock' }, 'unblock'],
    [
      '{ react: "👍", assign-first: Ana Ops }',
      { type: 'react', emoji: '👍', assignFirst: 'Ana Ops' },
      'react "👍" assign-first "Ana Ops"',
    ],
    [
      'send-message: "Hi {{contact.name}}"',
      { type: 'send-message', text: 'Hi {{contact.name}}' },
      'send-message "Hi {{contact.name}}"',
    ],
    [
      '{ send-message: { text: Hi, channel: Main }, assign-first: round-robin }',
      { type: 'send-message', text: 'Hi', channel: 'Main', assignFirst: 'round-robin' },
      'send-message "Hi" on "Main" assign-first "round-robin"',
    ],
    [
      'send-template: { name: welcome, language: en, parameters: ["{{contact.name}}", "x"] }',
      { type: 'send-template', name: 'welcome', language: 'en', parameters: ['{{contact.name}}', 'x'] },
      'send-template "welcome (en)" with ["{{contact.name}}","x"]',
    ],
    [
      'set-field: { key: plan, value: Pro }',
      { type: 'set-field', key: 'plan', value: 'Pro' },
      'set-field "plan" to "Pro"',
    ],
    [
      'set-field: { key: plan, value: null }',
      { type: 'set-field', key: 'plan', value: null },
      'set-field "plan" to null',
    ],
    [
      'update-contact: { status: archived }',
      { type: 'update-contact', status: 'archived' },
      'update-contact {"status":"archived"}',
    ],
    ['open-conversation: Main', { type: 'open-conversation', channel: 'Main' }, 'open-conversation "Main"'],
    [
      'create-segment: { name: Dormant, filters: { status: active } }',
      { type: 'create-segment', name: 'Dormant', filters: { status: 'active' } },
      'create-segment "Dormant"',
    ],
  ])('parses `- %s` and shows it', (item, action, label) => {
    const { actions, problems } = parse(item);
    expect(problems).toEqual([]);
    expect(actions).toEqual([action]);
    expect(actionLabel(action)).toBe(label);
  });

  it.each<[RuleAction, string[], string | undefined]>([
    [{ type: 'add-tag', tag: 'x' }, ['contact.updated'], 'contact.tags'],
    [{ type: 'unassign' }, ['contact.updated'], 'contact.assigneeId'],
    [{ type: 'set-field', key: 'plan', value: 'Pro' }, ['contact.updated'], 'contact.customFields.plan'],
    [{ type: 'update-contact', status: 'archived' }, ['contact.updated'], 'contact.status'],
    [{ type: 'send-message', text: 'x' }, ['message.created'], undefined],
    [
      { type: 'send-template', name: 'w', assignFirst: 'round-robin' },
      ['message.created', 'contact.updated'],
      'contact.assigneeId',
    ],
    [{ type: 'react', emoji: 'x' }, [], undefined],
    [{ type: 'open-conversation', channel: 'x' }, [], undefined],
    [{ type: 'create-segment', name: 'x', filters: {} }, [], undefined],
  ])('%o emits %o and writes %s', (action, emits, writes) => {
    const { effect } = actionDefinition(action.type);
    expect(effect.emits(action)).toEqual(emits);
    expect(effect.writes?.(action)).toBe(writes);
  });

  it.each<[string, string, string | undefined]>([
    [
      'react: "👍"',
      'contact.created',
      'react answers the triggering message and contact.created events carry none',
    ],
    ['send-message: hi', 'contact.created', undefined],
    ['send-template: { name: welcome }', 'contact.created', undefined],
    ['add-tag: vip', 'broadcast.completed', 'add-tag acts on a contact, and broadcast.completed'],
    ['send-message: hi', 'channel.status.updated', 'send-message acts on a contact'],
    ['create-segment: { name: s, filters: {} }', 'broadcast.completed', undefined],
  ])('`- %s` on %s: %s', (item, on, refusal) => {
    const { problems } = parse(item, on);
    if (refusal === undefined) expect(problems).toEqual([]);
    else
      expect(problems).toEqual([
        expect.objectContaining({ code: 'invalid-action', message: expect.stringContaining(refusal) }),
      ]);
  });

  it('refuses react in segment rules, and accepts send-template there', () => {
    const rule = (item: string) =>
      `rule: r\non: { schedule: "0 6 * * *", segment: { filters: { status: active } } }\ndo:\n  - ${item}\n`;
    const load = (item: string) => loadRulesFromFiles([{ path: 'r.yaml', text: rule(item) }]).problems;
    expect(load('react: "👍"')).toEqual([
      expect.objectContaining({ code: 'invalid-action', line: 4, col: 5 }),
    ]);
    expect(load('send-template: { name: welcome, parameters: ["{{contact.name}}"] }')).toEqual([]);
  });
});

describe('guards and local effects', () => {
  it.each<[string, ResolvedAction, Partial<Contact>, string | undefined]>([
    ['unassign an unassigned contact', { type: 'unassign' }, { assigneeId: null }, 'no_change'],
    ['unassign', { type: 'unassign' }, {}, undefined],
    ['set a field to what it holds', { type: 'set-field', key: 'plan', value: 'opt-pro' }, {}, 'no_change'],
    ['clear an empty field', { type: 'set-field', key: 'company', value: null }, {}, 'no_change'],
    ['set a field', { type: 'set-field', key: 'plan', value: 'opt-free' }, {}, undefined],
    [
      'multi-select in another order',
      { type: 'set-field', key: 'tags2', value: ['b', 'a'] },
      { customFields: { tags2: ['a', 'b'] } },
      'no_change',
    ],
    [
      'archive an archived contact',
      { type: 'update-contact', patch: { status: 'archived' } },
      { status: 'archived' },
      'no_change',
    ],
    ['rename', { type: 'update-contact', patch: { name: 'Ana B' } }, {}, undefined],
    [
      'a template to an unassigned contact',
      { type: 'send-template', templateId: 't', name: 'w', parameters: [] },
      { assigneeId: null },
      'needs_assignee',
    ],
    [
      'a template to a blocked contact',
      { type: 'send-template', templateId: 't', name: 'w', parameters: [] },
      { isBlocked: true },
      'contact_blocked',
    ],
    [
      'a template on a disconnected channel',
      { type: 'send-template', templateId: 't', name: 'w', parameters: [], channel: channel('disconnected') },
      {},
      'channel_not_connected',
    ],
    [
      'a message on a connected channel',
      { type: 'send-message', text: 'x', channel: channel('connected') },
      {},
      undefined,
    ],
  ])('%s → %s', (_name, action, over, reason) => {
    const verdict = actionDefinition(action.type).guard(action, contact(over));
    if (reason === undefined) expect(verdict).toEqual({ proceed: true });
    else expect(verdict).toMatchObject({ proceed: false, reason });
  });

  it.each<[ResolvedAction, Partial<Contact>]>([
    [{ type: 'unassign' }, { assigneeId: null }],
    [{ type: 'set-field', key: 'plan', value: null }, { customFields: {} }],
    [
      { type: 'set-field', key: 'company', value: 'Acme' },
      { customFields: { plan: 'opt-pro', company: 'Acme' } },
    ],
    [
      { type: 'update-contact', patch: { name: 'B', status: 'archived' } },
      { name: 'B', status: 'archived' },
    ],
  ])('applies %o', (action, expected) => {
    expect(actionDefinition(action.type).apply(action, contact())).toMatchObject(expected);
  });
});
