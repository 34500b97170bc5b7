// Rule tests mock the answers of http-request steps by the step's name (`responses: { erp-lookup:
// { status: 200, json: {...} } }`): a 2xx answer lets the run go on and shows what `save:` keeps,
// any other ends the run there as the engine would (4xx failed; 5xx retried, then dead). Offline
// and pure: nothing is sent.
import type { HttpRequestAction } from '../../catalogue/http-request.action';
import { mapResponse } from '../../catalogue/response-path';
import { isPlainObject, type ProblemCollector } from '../format/problem-collector';
import type { FailureFacts, RuleAction, RuleDefinition } from '../format/rule-types';

export type MockedResponse = { status: number; json?: unknown };
export type MockedResponses = Record<string, MockedResponse>;

function stepNames(rules: readonly RuleDefinition[]): Set<string> {
  const actions = rules.flatMap((r): RuleAction[] => [
    ...r.actions,
    ...(r.trigger.kind === 'schedule' ? (r.trigger.onLeave ?? []) : []),
  ]);
  return new Set(actions.flatMap((a) => (a.type === 'http-request' ? [a.name] : [])));
}

/** The case's responses; a name that is no http-request step of the tested rules is an error. */
export function checkMockedResponses(
  raw: unknown,
  rules: readonly RuleDefinition[],
  ctx: ProblemCollector,
): MockedResponses {
  if (!isPlainObject(raw)) return {};
  const names = stepNames(rules);
  const responses: MockedResponses = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!names.has(name))
      ctx.error(
        ['responses', name],
        'test-file',
        `no http-request step is named "${name}"${names.size ? ` (steps: ${[...names].join(', ')})` : ''}`,
        'key',
      );
    else if (isPlainObject(value) && typeof value.status === 'number')
      responses[name] = { status: value.status, ...('json' in value ? { json: value.json } : {}) };
  }
  return responses;
}

/** What the mocked answer does to the run, and the explain line that says so. */
export function mockedOutcome(
  action: HttpRequestAction,
  responses: MockedResponses,
): { goesOn: boolean; note: string; failure?: FailureFacts } {
  const answer = responses[action.name] ?? { status: 200 };
  const step = `http-request "${action.name}" answered ${answer.status}`;
  if (answer.status >= 200 && answer.status <= 299) {
    const saved = action.save ? mapResponse(action.save, answer.json ?? null) : {};
    const shown = Object.entries(saved).map(([k, v]) => `steps.${action.name}.${k} = ${JSON.stringify(v)}`);
    return { goesOn: true, note: shown.length ? `${step}, saved ${shown.join(', ')}` : step };
  }
  const retried = answer.status >= 500 || [408, 429].includes(answer.status);
  const how = retried ? 'retried, then dead' : 'failed';
  return {
    goesOn: false,
    note: `${step}: the run ends there (${how}), later actions are skipped`,
    // What an on-failure arm reads, as the engine records it (failure-facts.ts).
    failure: { reason: `http_${answer.status}`, class: retried ? 'dead' : 'failed' },
  };
}
