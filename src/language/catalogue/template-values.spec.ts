import { loadRulesFromFiles } from '../rules/format/load-rules';
import { renderTemplate, templateProblems } from './template-values';

describe('templateProblems', () => {
  it.each<[string, readonly string[] | 'schedule', string | undefined]>([
    ['Hi {{contact.name}}', ['contact.created'], undefined],
    ['Plan {{contact.customFields.plan}}', ['contact.created'], undefined],
    ['Order {{event.data.text}} / {{message.text}}', ['message.created'], undefined],
    ['Hi {{{contact.name}}} {{! a comment }}', ['message.created'], undefined],
    ['Hi {{contact.name}}', 'schedule', undefined],
    [
      'Hi {{contact.nmae}}',
      ['contact.created'],
      'unknown-fact: {{contact.nmae}}: contact has no field "nmae" (did you mean "name"?)',
    ],
    ['Hi {{customer.name}}', ['contact.created'], 'unknown-fact: {{customer.name}}: unknown fact "customer"'],
    [
      '{{message.text}}',
      ['contact.created'],
      'unavailable-fact: {{message.text}}: fact "message" only exists for message.* events',
    ],
    [
      '{{event.data.text}}',
      ['contact.created'],
      'unknown-fact: {{event.data.text}}: event.data has no field "text" in contact.created events',
    ],
    [
      '{{event.id}}',
      'schedule',
      'unavailable-fact: {{event.id}}: fact "event" does not exist in segment rules',
    ],
    [
      '{{#contact.tags}}x{{/contact.tags}}',
      ['contact.created'],
      'invalid-action: templates take plain {{fact.path}} values only',
    ],
    ['Hi {{contact.name', ['contact.created'], 'invalid-action: template "Hi {{contact.name" does not parse'],
  ])('%s in %s → %s', (text, trigger, problem) => {
    const found = templateProblems(text, trigger)
      .filter((p) => p.severity !== 'warning')
      .map((p) => `${p.code}: ${p.message}`);
    if (problem === undefined) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringContaining(problem)]);
  });

  it('is a file:line:col error in a rule', () => {
    const text = [
      'rule: greet',
      'on: contact.created',
      'do:',
      '  - send-template:',
      '      name: welcome',
      '      parameters: ["{{contact.name}}", "{{contact.plan}}"]',
      '  - send-message: "Hi {{contact.nmae}}"',
      '',
    ].join('\n');
    const { ruleSet, problems } = loadRulesFromFiles([{ path: 'r.yaml', text }]);
    expect(ruleSet).toBeUndefined();
    expect(problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.code}`)).toEqual([
      'r.yaml:6:40 unknown-fact', // the value that holds the template
      'r.yaml:7:19 unknown-fact',
    ]);
  });
});

describe('renderTemplate', () => {
  it('renders facts as plain text, missing ones empty, nothing escaped', () => {
    const view = { contact: { name: 'Ana & <Bo>', customFields: { plan: 'Pro' } }, event: { data: {} } };
    expect(renderTemplate('Hi {{contact.name}} ({{contact.customFields.plan}}){{event.data.x}}!', view)).toBe(
      'Hi Ana & <Bo> (Pro)!',
    );
  });

  it('never executes what a value contains', () => {
    const view = { contact: { name: '{{contact.secret}}', secret: 'no' } };
    expect(renderTemplate('{{contact.name}}', view)).toBe('{{contact.secret}}');
  });
});

describe('templates: a value that may be absent', () => {
  it.each<[string, readonly string[] | 'schedule', string | undefined]>([
    ['Hi {{contact.name}}', ['contact.created'], undefined],
    [
      'Hi {{contact.email}}',
      ['contact.created'],
      'missing-default: {{contact.email}}: contact.email may be null',
    ],
    [
      'Hi {{contact.customFields.firstName}}',
      'schedule',
      'missing-default: {{contact.customFields.firstName}}: contact.customFields.firstName is an open field',
    ],
    ['Hi {{contact.customFields.firstName | default: "there"}}', ['contact.created'], undefined],
    ['{{message.text}}', ['message.created'], 'missing-default: {{message.text}}: message.text may be null'],
    ['{{contact.nmae | default: "x"}}', ['contact.created'], 'unknown-fact: {{contact.nmae | default: "x"}}'],
    [
      '{{contact.name | shout}}',
      ['contact.created'],
      'invalid-action: {{contact.name | shout}}: unknown filter',
    ],
  ])('%s in %s → %s', (text, trigger, problem) => {
    const found = templateProblems(text, trigger).map((p) => `${p.code}: ${p.message}`);
    if (problem === undefined) expect(found).toEqual([]);
    else expect(found).toEqual([expect.stringContaining(problem)]);
  });

  it('is a warning: the rule set still loads', () => {
    const text = 'rule: greet\non: contact.created\ndo:\n  - send-message: "Hi {{contact.email}}"\n';
    const { ruleSet, problems } = loadRulesFromFiles([{ path: 'r.yaml', text }]);
    expect(ruleSet).toBeDefined();
    expect(problems.map((p) => `${p.line}:${p.col} ${p.severity} ${p.code}`)).toEqual([
      '4:19 warning missing-default',
    ]);
  });
});

describe("a contact rule's on-event template reading {{message.text}}", () => {
  const rule = (arm: 'on-event' | 'on-timeout') =>
    [
      'rule: ask',
      'on: contact.created',
      'do:',
      '  - wait: 1d',
      '    until: { event: message.created }',
      `    ${arm}:`,
      '      - send-message: "You said {{message.text | default: \\"nothing\\"}}"',
      '',
    ].join('\n');

  it('is accepted: the on-event steps read the event that ended the wait', () => {
    const { ruleSet, problems } = loadRulesFromFiles([{ path: 'r.yaml', text: rule('on-event') }]);
    expect(problems).toEqual([]);
    expect(ruleSet).toBeDefined();
  });

  it('is still refused in on-timeout, where no message ended the wait', () => {
    const { problems } = loadRulesFromFiles([{ path: 'r.yaml', text: rule('on-timeout') }]);
    expect(problems.map((p) => `${p.line}:${p.code}`)).toEqual(['7:unavailable-fact']);
  });
});
