// The rules test/pipeline/branches.e2e-spec.ts runs: reply-or-escalate (a wait with on-event /
// on-timeout in each arm of an if), ask-choice (the answer reads the reply), a split, goals met
// while a run waits (on a contact event, on a message event) and after it succeeded (late-convert).
const inbound = `{ fact: message.isOutgoing, operator: equal, value: false }`;
const nameStarts = (prefix: string) => `{ fact: contact.name, operator: startsWith, value: '${prefix}' }`;

// VIP conversations get a short SLA (its timeout is what the test waits for), the others an hour
// (a reply always comes first, however slow the machine): both waits branch on how they ended.
const outcomes = (ms: string) => `
      - wait: ${ms}
        until:
          event: message.created
          where: { fact: message.isOutgoing, operator: equal, value: true }
          same: conversation
        on-event:
          - add-tag: answered
        on-timeout:
          - add-tag: escalated`;
export const BRANCH_RULES = `
rule: reply-or-escalate
on: message.created
if: { all: [${inbound}, ${nameStarts('Sla')}] }
do:
  - add-tag: awaiting-reply
  - if: ${nameStarts('Sla Vip')}
    then:${outcomes('5s')}
    else:${outcomes('1h')}
---
rule: ab-welcome
on: contact.created
if: ${nameStarts('Split')}
do:
  - split:
      arms:
        a: { weight: 50, do: [ { add-tag: variant-a } ] }
        b: { weight: 50, do: [ { add-tag: variant-b } ] }
---
rule: ask-choice
on: message.created
if: { all: [${inbound}, ${nameStarts('Ask')}] }
once: per-contact
do:
  - send-message: Reply 1 for a call, 2 for prices
  - wait: 1h
    until:
      event: message.created
      where: ${inbound}
      same: conversation
    on-event:
      - send-message: 'You chose {{message.text}}'
    on-timeout:
      - add-tag: escalated
---
rule: deal-goal
on: contact.created
if: ${nameStarts('Deal')}
goal: { all: [ { fact: message.text, operator: equal, value: deal }, { fact: contact.tags, operator: hasTag, value: vip } ] }
do:
  - add-tag: nurtured
  - wait: 1h
  - add-tag: follow-up
---
rule: late-convert
on: contact.created
if: ${nameStarts('Late')}
goal: { if: { fact: contact.tags, operator: hasTag, value: customer }, within: 1d }
do:
  - split:
      arms:
        a: { weight: 50, do: [ { add-tag: variant-a } ] }
        b: { weight: 50, do: [ { add-tag: variant-b } ] }
---
rule: nurture
on: contact.created
if: ${nameStarts('Goal')}
goal: { fact: contact.tags, operator: hasTag, value: customer }
do:
  - add-tag: nurtured
  - wait: 1h
  - add-tag: follow-up
`;
