// The rule the admin API and export suites drive: any update of an unblocked contact tags it vip.
export const VIP_ON_UPDATE_RULE = [
  'rule: vip-on-update',
  'on: contact.updated',
  'if:',
  '  all:',
  '    - { fact: contact.isBlocked, operator: equal, value: false }',
  'do:',
  '  - add-tag: vip',
  '',
].join('\n');
