// Table tests of the rule graph builder: nodes, edges (triggers, does, on-leave, emits) and marks.
import { loadRulesFromFiles } from '../../language/rules/format/load-rules';
import { buildRuleGraph, type RuleGraph } from './rule-graph';

const graphOf = (text: string): RuleGraph =>
  buildRuleGraph(loadRulesFromFiles([{ path: 'r/a.yaml', text }]).loaded ?? []);
const edges = (g: RuleGraph) => g.edges.map((e) => `${e.from} -${e.kind}${e.loop ? '!' : ''}-> ${e.to}`);
const marks = (g: RuleGraph) =>
  Object.fromEntries(g.nodes.filter((n) => n.marks.length).map((n) => [n.key, n.marks.join(',')]));

const rule = (id: string, body: string) => `rule: ${id}\n${body}\n---\n`;

describe('buildRuleGraph', () => {
  it.each<[string, string, string[], Record<string, string>]>([
    [
      'an event rule: trigger, action, the event the write emits',
      rule('tag', 'on: contact.created\ndo: [{ add-tag: new }]'),
      [
        'event:contact.created -triggers-> rule:tag',
        'rule:tag -does-> action:tag:0',
        'action:tag:0 -emits-> event:contact.updated',
      ],
      {},
    ],
    [
      'an http-request: an action that emits nothing (it writes nothing in the CRM)',
      rule(
        'erp',
        'on: contact.created\ndo: [{ http-request: { name: erp, url: "https://erp.example.com/" } }]',
      ),
      ['event:contact.created -triggers-> rule:erp', 'rule:erp -does-> action:erp:0'],
      {},
    ],
    [
      'a chain: the emitted event triggers the next rule',
      rule('a', 'on: contact.created\ndo: [{ move-stage: New }]') +
        rule(
          'b',
          'on: contact.updated\nif: { fact: contact.status, operator: equal, value: active }\ndo: [{ add-tag: moved }]',
        ),
      [
        'event:contact.created -triggers-> rule:a',
        'event:contact.updated -triggers-> rule:b',
        'rule:a -does-> action:a:0',
        'rule:b -does-> action:b:0',
        'action:a:0 -emits-> event:contact.updated',
        'action:b:0 -emits-> event:contact.updated',
      ],
      {},
    ],
    [
      'a sent message is outgoing: rules requiring inbound messages are not triggered by it',
      rule(
        'inbound',
        'on: message.created\nif: { fact: message.isOutgoing, operator: equal, value: false }\ndo: [{ send-message: Hi }]',
      ) + rule('any-message', 'on: message.created\ndo: [{ add-tag: talked }]'),
      [
        'event:message.created -triggers-> rule:any-message',
        'event:message.created -triggers-> rule:inbound',
        'event:message.created:outgoing -triggers-> rule:any-message',
        'rule:any-message -does-> action:any-message:0',
        'rule:inbound -does-> action:inbound:0',
        'action:any-message:0 -emits-> event:contact.updated',
        'action:inbound:0 -emits-> event:message.created:outgoing',
      ],
      {},
    ],
    [
      'a segment rule: its schedule, do and on-leave',
      rule(
        'dormant',
        "on: { schedule: '0 6 * * *', segment: { name: Dormant, filters: { status: active } } }\ndo: [{ add-tag: dormant }]\non-leave: [{ remove-tag: dormant }]",
      ),
      [
        'schedule:dormant -triggers-> rule:dormant',
        'rule:dormant -does-> action:dormant:0',
        'rule:dormant -on-leave-> leave:dormant:0',
        'action:dormant:0 -emits-> event:contact.updated',
        'leave:dormant:0 -emits-> event:contact.updated',
      ],
      {},
    ],
    [
      'disabled and shadow rules write nothing: no emits',
      rule('off', 'on: contact.created\nenabled: false\ndo: [{ add-tag: x }]') +
        rule('dry', 'on: contact.created\nmode: shadow\ndo: [{ add-tag: y }]'),
      [
        'event:contact.created -triggers-> rule:dry',
        'event:contact.created -triggers-> rule:off',
        'rule:dry -does-> action:dry:0',
        'rule:off -does-> action:off:0',
      ],
      { 'rule:off': 'disabled', 'rule:dry': 'shadow' },
    ],
    [
      'a loop: its rules, actions and edges marked',
      rule('add', 'on: contact.updated\ndo: [{ add-tag: x }]') +
        rule('remove', 'on: contact.updated\ndo: [{ remove-tag: x }]'),
      [
        'event:contact.updated -triggers!-> rule:add',
        'event:contact.updated -triggers!-> rule:remove',
        'rule:add -does!-> action:add:0',
        'rule:remove -does!-> action:remove:0',
        'action:add:0 -emits!-> event:contact.updated',
        'action:remove:0 -emits!-> event:contact.updated',
      ],
      {
        'rule:add': 'loop,conflict',
        'rule:remove': 'loop,conflict',
        'action:add:0': 'loop',
        'action:remove:0': 'loop,conflict',
      },
    ],
    [
      'a tag fight across triggers marks both rules',
      rule('on-create', 'on: contact.created\ndo: [{ add-tag: vip }]') +
        rule('on-message', 'on: message.created\ndo: [{ remove-tag: vip }]'),
      [
        'event:contact.created -triggers-> rule:on-create',
        'event:message.created -triggers-> rule:on-message',
        'rule:on-create -does-> action:on-create:0',
        'rule:on-message -does-> action:on-message:0',
        'action:on-create:0 -emits-> event:contact.updated',
        'action:on-message:0 -emits-> event:contact.updated',
      ],
      { 'rule:on-create': 'conflict', 'rule:on-message': 'conflict' },
    ],
    [
      'unreachable: an impossible condition, and a redundant twin',
      rule(
        'never',
        'on: contact.created\nif: { all: [{ fact: contact.status, operator: in, value: [] }] }\ndo: [{ add-tag: x }]',
      ) +
        rule('first', 'on: contact.created\npriority: 5\ndo: [{ add-tag: y }]') +
        rule('twin', 'on: contact.created\ndo: [{ add-tag: y }]'),
      [
        'event:contact.created -triggers-> rule:first',
        'event:contact.created -triggers-> rule:never',
        'event:contact.created -triggers-> rule:twin',
        'rule:first -does-> action:first:0',
        'rule:never -does-> action:never:0',
        'rule:twin -does-> action:twin:0',
        'action:first:0 -emits-> event:contact.updated',
        'action:never:0 -emits-> event:contact.updated',
        'action:twin:0 -emits-> event:contact.updated',
      ],
      { 'rule:never': 'unreachable', 'rule:twin': 'unreachable' },
    ],
  ])('%s', (_, text, expectedEdges, expectedMarks) => {
    const g = graphOf(text);
    expect(edges(g)).toEqual(expectedEdges);
    expect(marks(g)).toEqual(expectedMarks);
  });

  it('is the same whatever the order of the rules', () => {
    const a = rule('a', 'on: contact.created\ndo: [{ add-tag: x }]');
    const b = rule('b', 'on: message.created\ndo: [{ send-message: Hi }]');
    expect(graphOf(b + a)).toEqual(graphOf(a + b));
  });
});
