import { loadRulesFromFiles } from '../format/load-rules';
import { runRuleTests } from './rule-tests';

const RULES = `
rule: greet
on: contact.created
timezone: Europe/Lisbon
do:
  - send-message: 'Hi {{contact.customFields.firstName | default: "there"}}, since {{contact.createdAt | date: "d LLL HH:mm"}}'
`;
const set = loadRulesFromFiles([{ path: 'r/rules.yaml', text: RULES }]).ruleSet!;
const CONTACT = `{ id: 0b6f1f5e-8a6c-4b0e-9a57-1c2f4d7e9a01, name: A, phone: "351912345678", status: active, isBlocked: false, sourceMethod: MANUAL, tags: [], customFields: {}, createdAt: "2024-01-01T23:30:00Z", updatedAt: "2024-01-01T00:00:00Z", lastInteractionAt: null, assigneeId: 5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c }`;

describe('rule tests show the rendered text', () => {
  it('puts the text an action would send beside it in the diff and the trace', async () => {
    const report = await runRuleTests(set, [
      {
        path: 'r/rules.test.yaml',
        text: `tests:\n  - name: greets\n    event: { type: contact.created }\n    contact: ${CONTACT}\n    expect: none\n`,
      },
    ]);
    const [result] = report.results;
    expect(result.passed).toBe(false);
    expect(result.details).toContain(
      '  - send-message "Hi {{contact.customFields.firstName | default: \\"there\\"}},…   (rule greet), renders "Hi there, since 1 Jan 23:30"',
    );
    expect(result.details).toContainEqual(
      expect.stringContaining('send-message renders "Hi there, since 1 Jan 23:30"'),
    );
  });
});
