// The three customer-facing rules the at-most-once suites drive: a message, an approved template and
// a reaction, each started by its own trigger (contact notes "send" / "template", an inbound
// "react please"). One copy for at-most-once.e2e-spec.ts and after-accepted.e2e-spec.ts.
export const SEND_RULE = `
rule: follow-up
on: contact.updated
if: { fact: contact.notes, operator: equal, value: "send" }
do:
  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }
`;

export const TEMPLATE_RULE = `
rule: welcome-back
on: contact.updated
if: { fact: contact.notes, operator: equal, value: "template" }
do:
  - send-template: { name: welcome, parameters: ["{{contact.name}}"], channel: Main WhatsApp }
`;

export const REACT_RULE = `
rule: thumbs-up
on: message.created
if:
  all:
    - { fact: message.isOutgoing, operator: equal, value: false }
    - { fact: message.text, operator: equal, value: "react please" }
do:
  - react: "👍"
`;
