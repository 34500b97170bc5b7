// Names of set-field, send-template, send-message / open-conversation channels and assign-first
// against a CRM snapshot: each action declares its names in its catalogue entry.
import { emptySnapshot, type CrmSnapshot } from '../../crm-terms/crm-snapshot';
import { loadRulesFromFiles } from '../format/load-rules';

const snapshot: CrmSnapshot = {
  ...emptySnapshot('https://crm.test'),
  takenAt: '2026-11-23T10:00:00.000Z',
  tags: [{ id: 't1', name: 'vip' }],
  channels: [{ id: 'c1', name: 'WhatsApp Sales', status: 'connected' }],
  members: [{ id: 'm1', name: 'Ana Costa', email: 'ana@demo.test', status: 'active' }],
  customFields: [
    {
      id: 'f1',
      fieldKey: 'plan',
      name: 'Plan',
      type: 'SINGLE_SELECT',
      status: 'ACTIVE',
      options: [
        { id: 'o1', label: 'Basic' },
        { id: 'o2', label: 'Premium' },
      ],
    },
    {
      id: 'f2',
      fieldKey: 'interests',
      name: 'Interests',
      type: 'MULTI_SELECT',
      status: 'ACTIVE',
      options: [{ id: 'o3', label: 'Shoes' }],
    },
    { id: 'f3', fieldKey: 'note', name: 'Note', type: 'TEXT', status: 'ACTIVE', options: [] },
    { id: 'f4', fieldKey: 'legacy', name: 'Legacy', type: 'TEXT', status: 'INACTIVE', options: [] },
  ],
  templates: [
    { id: 'w1', name: 'welcome', status: 'APPROVED', language: 'en' },
    { id: 'w2', name: 'welcome', status: 'APPROVED', language: 'pt_BR' },
    { id: 'w3', name: 'promo', status: 'PENDING', language: 'en' },
    { id: 'w4', name: 'receipt', status: 'APPROVED', language: 'en' },
  ],
};

const problemsOf = (action: string, snap = snapshot) =>
  loadRulesFromFiles(
    [{ path: 'r/a.yaml', text: `rule: a\non: contact.created\ndo:\n  - wait: 1m\n  - ${action}\n` }],
    { snapshot: snap },
  ).problems.map((p) => `${p.line}:${p.col} ${p.code}: ${p.message}`);

const at = (col: number, message: string) => [`5:${col} unknown-name: ${message}`];
const taken = 'in the CRM snapshot of 2026-11-23';
const fix = 'create it in the CRM and run crm-rules snapshot, or fix the name';

describe('names of actions against a CRM snapshot', () => {
  it.each<[string, string, string[]]>([
    ['set-field: known key and option', '{ set-field: { key: plan, value: premium } }', []],
    ['set-field: text field takes any value', '{ set-field: { key: note, value: anything } }', []],
    [
      'set-field: templated option is known at run time only',
      "{ set-field: { key: plan, value: '{{contact.name}}' } }",
      [],
    ],
    ['set-field: null clears', '{ set-field: { key: plan, value: null } }', []],
    [
      'set-field: unknown key',
      '{ set-field: { key: plna, value: Basic } }',
      at(25, `unknown custom field "plna" ${taken} (did you mean "plan"?); ${fix}`),
    ],
    [
      'set-field: unknown option label',
      '{ set-field: { key: plan, value: Premum } }',
      at(38, `unknown option "Premum" ${taken} (did you mean "Premium"?); ${fix}`),
    ],
    [
      'set-field: multi-select labels one by one',
      '{ set-field: { key: interests, value: [Shoes, Shose, Hats] } }',
      [
        `5:51 unknown-name: unknown option "Shose" ${taken} (did you mean "Shoes"?); ${fix}`,
        `5:58 unknown-name: unknown option "Hats" ${taken}; ${fix}`,
      ],
    ],
    [
      'set-field: inactive field',
      '{ set-field: { key: legacy, value: x } }',
      at(
        25,
        `custom field "legacy" is INACTIVE, not ACTIVE ${taken}; the engine would fail the action at run time`,
      ),
    ],
    ['send-template: name and language', '{ send-template: { name: welcome, language: pt_BR } }', []],
    ['send-template: name alone', '{ send-template: { name: Receipt } }', []],
    [
      'send-template: a name in two languages needs the language',
      '{ send-template: { name: welcome } }',
      at(
        30,
        `template "welcome" names 2 templates (languages en, pt_BR): give its language ${taken}; the engine would fail the action at run time`,
      ),
    ],
    [
      'send-template: unknown language',
      '{ send-template: { name: welcome, language: pt } }',
      at(30, `unknown template "welcome (pt)" ${taken} (did you mean "welcome (en)"?); ${fix}`),
    ],
    [
      'send-template: misspelt name',
      '{ send-template: { name: welcom } }',
      at(30, `unknown template "welcom" ${taken} (did you mean "welcome"?); ${fix}`),
    ],
    [
      'send-template: not approved',
      '{ send-template: { name: promo } }',
      at(
        30,
        `template "promo" is PENDING, not APPROVED ${taken}; the engine would fail the action at run time`,
      ),
    ],
    [
      'send-template: channel',
      '{ send-template: { name: receipt, channel: WhatsApp Sale } }',
      at(48, `unknown channel "WhatsApp Sale" ${taken} (did you mean "WhatsApp Sales"?); ${fix}`),
    ],
    [
      'send-message: channel and assign-first',
      '{ send-message: { text: Hi, channel: whatsapp sales }, assign-first: Ana Cost }',
      at(74, `unknown member "Ana Cost" ${taken} (did you mean "Ana Costa"?); ${fix}`),
    ],
    ['update-contact names no directory item', '{ update-contact: { name: x, status: archived } }', []],
  ])('%s', (_, action, expected) => {
    expect(problemsOf(action)).toEqual(expected);
  });

  it('checks template names only when the snapshot has no languages', () => {
    const old = { ...snapshot, templates: snapshot.templates.map(({ language: _, ...t }) => t) };
    expect(problemsOf('{ send-template: { name: welcome, language: xx } }', old)).toEqual([]);
  });
});

describe('names in segment filters against a CRM snapshot', () => {
  const segmentRule = (filters: string) =>
    loadRulesFromFiles(
      [
        {
          path: 'r/s.yaml',
          text: `rule: s\non:\n  schedule: '0 6 * * *'\n  segment:\n    filters: ${filters}\ndo:\n  - add-tag: vip\n`,
        },
      ],
      { snapshot },
    ).problems.map((p) => `${p.line}:${p.col} ${p.code}: ${p.message}`);

  it.each<[string, string, string[]]>([
    ['tag and member by name', '{ tagIds: [vip], assigneeIds: [Ana Costa, ana@demo.test] }', []],
    ['tag by uuid-less id of the snapshot', '{ tagIds: [t1] }', []],
    [
      'a misspelt tag, at its line and column',
      '{ tagIds: [vpi] }',
      [`5:25 unknown-name: unknown tag "vpi" ${taken} (did you mean "vip"?); ${fix}`],
    ],
    [
      'an unknown member',
      '{ assigneeIds: [Bob] }',
      [expect.stringMatching(/^5:30 unknown-name: unknown member "Bob"/) as unknown as string],
    ],
  ])('%s', (_, filters, expected) => {
    expect(segmentRule(filters)).toEqual(expected);
  });
});

describe("a pool's roles against a CRM snapshot", () => {
  const withRoles: CrmSnapshot = {
    ...snapshot,
    members: [{ id: 'm1', name: 'Ana Costa', email: 'ana@demo.test', status: 'active', role: 'Billing' }],
  };
  it.each<[string, string, CrmSnapshot, string[]]>([
    ['a role some member holds (any case)', '{ role: billing }', withRoles, []],
    ['the string form', "'role: Billing'", withRoles, []],
    [
      'a role nobody holds',
      '{ role: biling }',
      withRoles,
      [`5:33 unknown-name: unknown role "biling" ${taken} (did you mean "Billing"?); ${fix}`],
    ],
    // A snapshot whose members carry no role cannot tell a missing role from an old snapshot.
    ['a snapshot without roles: not checked', '{ role: biling }', snapshot, []],
  ])('%s', (_, entry, snap, expected) => {
    expect(problemsOf(`assign: { pool: [Ana Costa, ${entry}] }`, snap)).toEqual(expected);
  });
});
