import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';

// Rule tests honour the messaging policy (policy.yaml) offline: caps with `sent-in-period`, quiet
// hours deferring to their end, replies within the grace exempt, other actions untouched.
const RULES = `
rule: welcome
on: contact.created
do:
  - send-message: { text: Welcome, channel: Main WhatsApp }
  - add-tag: welcomed
---
rule: offer
on: contact.created
do:
  - send-template: { name: offer, channel: Main WhatsApp }
---
rule: answer
on: message.created
if: { fact: message.isOutgoing, operator: equal, value: false }
do:
  - send-message: Thanks for writing
`;
const POLICY = `caps: [{ max: 2, per: 1d }]
quiet-hours: { from: "21:00", to: "08:00", zone: UTC }
exempt-replies-within: 1h
`;
const set = loadRulesFromFiles([
  { path: 'r/rules.yaml', text: RULES },
  { path: 'r/policy.yaml', text: POLICY },
]).ruleSet!;

const CONTACT = '{ id: c1, name: A, isBlocked: false, assigneeId: m1, tags: [] }';
const MESSAGE =
  '{ id: m9, conversationId: v1, isOutgoing: false, text: hi, createdAt: "2026-06-10T22:50:00Z" }';
const WELCOME = '{ send-message: { text: Welcome, channel: Main WhatsApp } }';
const OFFER = '{ send-template: { name: offer, channel: Main WhatsApp } }';
const skipped = (action: string, reason: string) => action.replace(/ }$/, `, skipped: ${reason} }`);

const cases = `defaults:
  contact: ${CONTACT}
tests:
  - name: both messages fit the cap
    now: "2026-06-10T12:00:00Z"
    event: { type: contact.created }
    expect: [${WELCOME}, { add-tag: welcomed }, ${OFFER}]
  - name: one message already sent today, the second is policy_cap
    now: "2026-06-10T12:00:00Z"
    sent-in-period: 1
    event: { type: contact.created }
    expect: [${WELCOME}, { add-tag: welcomed }, ${skipped(OFFER, 'policy_cap')}]
  - name: the cap reached, only the tag
    now: "2026-06-10T12:00:00Z"
    sent-in-period: 2
    event: { type: contact.created }
    expect: [${skipped(WELCOME, 'policy_cap')}, { add-tag: welcomed }, ${skipped(OFFER, 'policy_cap')}]
  - name: guards off, the rule's decision only
    guards: off
    now: "2026-06-10T12:00:00Z"
    sent-in-period: 2
    event: { type: contact.created }
    expect: [${WELCOME}, { add-tag: welcomed }, ${OFFER}]
  - name: quiet hours defer the messages to 08:00
    now: "2026-06-10T22:00:00Z"
    event: { type: contact.created }
    expect: none
    then:
      - { after: 599m, expect: none }
      - { after: 1m, expect: [${WELCOME}, { add-tag: welcomed }, ${OFFER}] }
  - name: a reply within the grace goes out in quiet hours and over the cap
    now: "2026-06-10T23:00:00Z"
    sent-in-period: 2
    event: { type: message.created }
    message: ${MESSAGE}
    expect: [{ send-message: Thanks for writing }]
  - name: a reply to an old message waits like any other
    now: "2026-06-10T23:00:00Z"
    event: { type: message.created }
    message: { <<: ${MESSAGE}, createdAt: "2026-06-10T20:00:00Z" }
    expect: none
`;

describe('rule tests with a messaging policy', () => {
  it('apply caps, quiet hours and the reply grace', async () => {
    const report = await runRuleTests(set, [{ path: 'r/policy.test.yaml', text: cases }]);
    expect(report.problems).toEqual([]);
    const failed = report.results.filter((r) => !r.passed);
    expect(failed.map((r) => [r.name, r.details])).toEqual([]);
    expect(report.results).toHaveLength(7);
  });

  it('explain why a message was held', async () => {
    const report = await runRuleTests(set, [
      {
        path: 'r/policy.test.yaml',
        text: `tests:\n  - name: wrong on purpose\n    now: "2026-06-10T12:00:00Z"\n    sent-in-period: 2\n    contact: ${CONTACT}\n    event: { type: contact.created }\n    expect: [${OFFER}]\n`,
      },
    ]);
    expect(report.results[0].passed).toBe(false);
    expect(report.results[0].details).toContain(
      '  2026-06-10T12:00:00.000Z rule offer: action 1 skipped: policy_cap (2 message(s) per 1d reached)',
    );
  });
});
