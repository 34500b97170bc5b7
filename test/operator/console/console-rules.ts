// The rules the console's browser suite runs: a segment rule swept on demand, a message to send,
// a tag on every update (paused and resumed from the rules page), and a split with a goal (the
// rules page's chart).
import { DEMO } from '../../support/demo-fixture';

export const CONSOLE_RULES = {
  'vip-sweep.yaml': [
    'rule: vip-sweep',
    'on:',
    '  schedule: "0 0 1 1 *"', // swept on demand below
    '  segment:',
    `    filters: { tagIds: ["${DEMO.tags.vip}"] }`,
    'do:',
    '  - add-tag: thanked',
    '',
  ].join('\n'),
  'follow-up.yaml': [
    'rule: console-follow-up',
    'on: contact.updated',
    'if: { fact: contact.notes, operator: equal, value: send }',
    'do:',
    '  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }',
    '',
  ].join('\n'),
  'vip.yaml': [
    'rule: vip-on-update',
    'on: contact.updated',
    'if:',
    '  all:',
    '    - { fact: contact.isBlocked, operator: equal, value: false }',
    '    - { fact: contact.name, operator: notEqual, value: Nobody }',
    'do:',
    '  - add-tag: vip',
    '',
  ].join('\n'),
  'ab.yaml': [
    'rule: console-ab',
    'on: contact.updated',
    "if: { fact: contact.name, operator: startsWith, value: 'Chart' }",
    'once: per-contact',
    'goal: { fact: contact.tags, operator: hasTag, value: customer }',
    'do:',
    '  - split:',
    '      arms:',
    '        a: { weight: 50, do: [ { add-tag: ad-lead } ] }',
    '        b: { weight: 50, do: [ { add-tag: dormant } ] }',
    '',
  ].join('\n'),
};
