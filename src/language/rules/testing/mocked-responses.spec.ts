// Rule tests with mocked http-request answers: a 2xx lets the run go on (and shows what `save:`
// keeps), anything else ends it there; a response for a step that does not exist is a problem.
import type { HttpRequestAction } from '../../catalogue/http-request.action';
import { loadRulesFromFiles } from '../format/load-rules';
import { mockedOutcome } from './mocked-responses';
import { runRuleTests } from './rule-tests';

const RULES = `
rule: erp
on: contact.created
do:
  - http-request:
      name: erp-lookup
      method: GET
      url: "https://erp.example.com/accounts/{{contact.id}}"
      save: { status: "$.status" }
  - set-field: { key: company, value: "{{steps.erp-lookup.status}}" }
`;
const load = loadRulesFromFiles([{ path: 'r/rules.yaml', text: RULES }]);
const run = (text: string) => runRuleTests(load.ruleSet!, [{ path: 'r/rules.test.yaml', text }]);
const LOOKUP = `{ http-request: { name: erp-lookup, method: GET, url: "https://erp.example.com/accounts/{{contact.id}}", save: { status: "$.status" } } }`;
const SET = `{ set-field: { key: company, value: "{{steps.erp-lookup.status}}" } }`;

describe('mocked http-request answers in rule tests', () => {
  it('loads a rule whose later step reads a saved value', () => {
    expect(load.problems).toEqual([]);
  });

  it.each([
    ['a 200', '{ erp-lookup: { status: 200, json: { status: gold } } }', `[${LOOKUP}, ${SET}]`],
    ['no mock (200, no body)', '{}', `[${LOOKUP}, ${SET}]`],
    ['a 404', '{ erp-lookup: { status: 404 } }', `[${LOOKUP}]`],
    ['a 503', '{ erp-lookup: { status: 503 } }', `[${LOOKUP}]`],
  ])('after %s, does what the engine would', async (_what, responses, expected) => {
    const report = await run(
      `tests:\n  - name: c\n    event: { type: contact.created, data: { id: c1 } }\n    responses: ${responses}\n    expect: ${expected}\n`,
    );
    expect(report.problems).toEqual([]);
    expect(report.results.map((r) => [r.passed, r.details])).toEqual([[true, []]]);
  });

  it('reports a response for a step the rules do not have', async () => {
    const report = await run(
      `tests:\n  - name: c\n    event: { type: contact.created }\n    responses: { erp-lokup: { status: 200 } }\n    expect: none\n`,
    );
    expect(report.problems.map((p) => p.message)).toEqual([
      'no http-request step is named "erp-lokup" (steps: erp-lookup)',
    ]);
  });
});

describe('mockedOutcome', () => {
  const action = load.ruleSet!.rules[0].actions[0] as HttpRequestAction;
  it.each([
    [
      { status: 200, json: { status: 'gold' } },
      true,
      'http-request "erp-lookup" answered 200, saved steps.erp-lookup.status = "gold"',
    ],
    [{ status: 201 }, true, 'http-request "erp-lookup" answered 201, saved steps.erp-lookup.status = null'],
    [
      { status: 404 },
      false,
      'http-request "erp-lookup" answered 404: the run ends there (failed), later actions are skipped',
    ],
    [
      { status: 429 },
      false,
      'http-request "erp-lookup" answered 429: the run ends there (retried, then dead), later actions are skipped',
    ],
    [
      { status: 500 },
      false,
      'http-request "erp-lookup" answered 500: the run ends there (retried, then dead), later actions are skipped',
    ],
  ])('%p goes on: %p', (answer, goesOn, note) => {
    const failure = goesOn
      ? {}
      : { failure: { reason: `http_${answer.status}`, class: answer.status === 404 ? 'failed' : 'dead' } };
    expect(mockedOutcome(action, { 'erp-lookup': answer })).toEqual({ goesOn, note, ...failure });
  });
});
