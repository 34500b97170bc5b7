// *.test.yaml files -> test cases: facts to evaluate and the actions expected. Problems in a
// test file (unknown rule, bad action, bad date) are reported like rule problems.
import type { ValidateFunction } from 'ajv';
import type { CompiledRuleSet } from '../../matching/compiled-rule-set';
import type { RuleFile } from '../format/load-rules';
import { DURATION_HINT, parseDuration } from '../format/durations';
import { isPlainObject, ProblemCollector } from '../format/problem-collector';
import testSchema from './rule-test.schema.json';
import type { EvaluationFacts, NameResolver, RuleProblem, SourcePosition } from '../format/rule-types';
import {
  createAjv,
  issuesToProblems,
  RULE_SCHEMA_ID,
  schemaIssues,
  type SchemaIssue,
} from '../format/schema-problems';
import ruleSchema from '../format/rule.schema.json';
import { hint } from '../format/suggest';
import { parseYamlFile, type Locator } from '../format/yaml-source';
import { checkMockedResponses, type MockedResponses } from './mocked-responses';
import { withTagObjects } from './test-contact-tags';
import { expectedActions, guardsOf, type ExpectedAction } from './expected-actions';

export interface RuleTestCase {
  file: string;
  name: string;
  pos: SourcePosition;
  rule?: string;
  /** `rules: [a, b]`: only these rules act (a case about rules together, whatever else the set holds). */
  rules?: string[];
  /** Event cases; segment cases have only a contact. */
  facts: EvaluationFacts;
  wasInSegment: boolean;
  /** `sent-in-period`: when the customer messages the contact got before `now` were sent. */
  sentBefore: Date[];
  /** Undefined: `expect: { path }` without actions, nothing to compare. */
  expected: ExpectedAction[] | undefined;
  /** `guards: off` (the case's or the file's defaults): no assignee / blocked guard, no policy. */
  guards: boolean;
  /** `expect: { path: [...] }`: the arms the tested rule's run took so far. */
  expectedPath?: string[];
  /** `split: <arm>`: the arm every split takes in this case (else the contact's hash decides). */
  splitArm?: string;
  /** `then:` steps: the clock moves on (and maybe another event arrives); actions expected meanwhile. */
  later: LaterStep[];
  /** Mocked answers of http-request steps, by step name (mocked-responses.ts). */
  responses: MockedResponses;
}

export interface LaterStep {
  pos: SourcePosition;
  /** `after` as written, for messages. */
  after: string;
  now: Date;
  /** The contact as it is from this step on (merged over the previous step's). */
  contact?: Record<string, unknown>;
  /** The event arriving at `now`, if any. */
  facts?: EvaluationFacts;
  expected: ExpectedAction[] | undefined;
  expectedPath?: string[];
}

type Obj = Record<string, unknown>;

let validators: { file: ValidateFunction; action: ValidateFunction } | undefined;

function testValidators() {
  if (!validators) {
    const ajv = createAjv();
    ajv.addSchema(ruleSchema);
    ajv.addSchema(testSchema);
    validators = {
      file: ajv.getSchema(testSchema.$id)!,
      action: ajv.getSchema(`${RULE_SCHEMA_ID}#/definitions/action`)!,
    };
  }
  return validators;
}

/** `names`: stage and member names of change operators (from the CRM snapshot, when there is one). */
export function parseRuleTestFile(
  file: RuleFile,
  ruleSet: CompiledRuleSet,
  names?: NameResolver,
): { cases: RuleTestCase[]; problems: RuleProblem[] } {
  // Merge keys (<<: *contact) let a file share fixtures between cases.
  const parsed = parseYamlFile(file.path, file.text, { merge: true });
  const problems = [...parsed.problems];
  const cases: RuleTestCase[] = [];
  for (const doc of parsed.documents) {
    const issues = schemaIssues(testValidators().file, doc.value);
    problems.push(...issuesToProblems(issues, doc.at).map((p) => ({ ...p, code: 'test-file' as const })));
    // A broken case is skipped, the others still run; a broken file header skips the file.
    const inCase = (i: SchemaIssue) => i.path[0] === 'tests' && typeof i.path[1] === 'number';
    const brokenCases = new Set(issues.filter(inCase).map((i) => i.path[1]));
    if (issues.some((i) => !inCase(i)) || !isPlainObject(doc.value)) continue;
    const defaults = (doc.value.defaults ?? {}) as Obj;
    (doc.value.tests as Obj[]).forEach((raw, i) => {
      if (brokenCases.has(i)) return;
      const at = doc.at.child(['tests', i]);
      const c = parseCase(raw, defaults, at, ruleSet, problems, names);
      if (c) cases.push(c);
    });
  }
  return { cases, problems };
}

function parseCase(
  raw: Obj,
  defaults: Obj,
  at: Locator,
  ruleSet: CompiledRuleSet,
  problems: RuleProblem[],
  names: NameResolver | undefined,
): RuleTestCase | undefined {
  const ctx = new ProblemCollector(at, problems);
  const ruleId = raw.rule as string | undefined;
  const rule = ruleId === undefined ? undefined : ruleSet.rule(ruleId);
  if (ruleId !== undefined && !rule) {
    ctx.error(
      ['rule'],
      'test-file',
      `unknown rule "${ruleId}"${hint(
        ruleId,
        ruleSet.rules.map((r) => r.id),
        0,
      )}`,
    );
  }
  const together = Array.isArray(raw.rules) ? raw.rules.map(String) : undefined;
  together?.forEach((id, i) => {
    if (!ruleSet.rule(id))
      ctx.error(
        ['rules', i],
        'test-file',
        `unknown rule "${id}"${hint(
          id,
          ruleSet.rules.map((r) => r.id),
          0,
        )}`,
      );
  });
  if (together && ruleId !== undefined)
    ctx.error(['rules'], 'test-file', 'give rule: (one rule) or rules: (several), not both', 'key');
  const segmentRule = rule?.trigger.kind === 'schedule';
  const contact = merge(defaults.contact, raw.contact);
  const event = raw.event as Obj | undefined;
  if (!event && !segmentRule)
    ctx.error([], 'test-file', 'a case needs an event (or `rule:` naming a segment rule, and a contact)');
  if (segmentRule && !contact)
    ctx.error([], 'test-file', `segment rule "${ruleId}" is tested with a contact: add contact`);
  const now = timeOf(raw.now ?? defaults.now ?? event?.createdAt, ctx);
  const expected = expectation(raw.expect, ctx);
  const later = now ? laterSteps(raw.then, { defaults, contact, now, names }, at, problems) : undefined;
  const responses = checkMockedResponses(raw.responses, rule ? [rule] : ruleSet.rules, ctx);
  const guards = guardsOf(raw.guards ?? defaults.guards);
  if (ctx.errorCount() > 0 || !now || !expected || !later) return undefined;
  const facts = factsOf(event, contact, merge(defaults.message, raw.message), now);
  // The contact before the event, as the engine's mirror would have it; none: first sight.
  const previous = raw.previous === undefined ? undefined : merge(defaults.contact, raw.previous);
  Object.assign(facts, changeFacts(previous, 'the case gives no previous contact', names));
  return {
    file: at.file,
    name: String(raw.name),
    pos: at.pos([]),
    ...(ruleId !== undefined ? { rule: ruleId } : {}),
    ...(together ? { rules: together } : {}),
    facts,
    wasInSegment: raw['was-in-segment'] === true,
    guards,
    sentBefore: Array.from(
      { length: typeof raw['sent-in-period'] === 'number' ? raw['sent-in-period'] : 0 },
      () => new Date(now.getTime() - 60_000),
    ),
    ...(typeof raw.split === 'string' ? { splitArm: raw.split } : {}),
    ...expected,
    later,
    responses,
  };
}

function laterSteps(
  raw: unknown,
  start: { defaults: Obj; contact: Obj | undefined; now: Date; names: NameResolver | undefined },
  at: Locator,
  problems: RuleProblem[],
): LaterStep[] | undefined {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return undefined; // the schema reported it
  let { contact, now } = start;
  const steps: LaterStep[] = [];
  const before = problems.length;
  raw.forEach((item: Obj, i) => {
    const stepAt = at.child(['then', i]);
    const ctx = new ProblemCollector(stepAt, problems);
    const ms = parseDuration(item.after);
    if (ms === undefined)
      ctx.error(['after'], 'test-file', `after takes ${DURATION_HINT}, not ${JSON.stringify(item.after)}`);
    const expected = expectation(item.expect, ctx);
    if (ms === undefined || !expected) return;
    now = new Date(now.getTime() + ms);
    // A later event's previous state is the contact of the step before: the mirror would have it.
    const previous = contact;
    contact = item.contact === undefined ? contact : merge(contact, item.contact);
    const event = item.event as Obj | undefined;
    const facts = event && factsOf(event, contact, merge(start.defaults.message, item.message), now);
    if (facts) Object.assign(facts, changeFacts(previous, 'the case gives no contact before', start.names));
    steps.push({
      pos: stepAt.pos([]),
      after: String(item.after),
      now,
      ...(contact ? { contact } : {}),
      ...(facts ? { facts } : {}),
      ...expected,
    });
  });
  return problems.slice(before).some((p) => p.severity === 'error') ? undefined : steps;
}

function changeFacts(
  previous: Obj | undefined,
  missing: string,
  names: NameResolver | undefined,
): Pick<EvaluationFacts, 'previous' | 'names'> {
  return { previous: previous ? { contact: previous } : { missing }, ...(names ? { names } : {}) };
}

/** A contact (or message) over its defaults; tags written by name become tags (test-contact-tags.ts). */
function merge(base: unknown, own: unknown): Obj | undefined {
  if (!isPlainObject(base) && !isPlainObject(own)) return undefined;
  return withTagObjects({ ...(isPlainObject(base) ? base : {}), ...(isPlainObject(own) ? own : {}) });
}

/** The facts the engine would build: contact.* events carry the contact, message.* events the message. */
export function factsOf(
  event: Obj | undefined,
  contact: Obj | undefined,
  message: Obj | undefined,
  now: Date,
): EvaluationFacts {
  const type = typeof event?.type === 'string' ? event.type : 'schedule';
  const isContactEvent = type.startsWith('contact.');
  const isMessageEvent = type.startsWith('message.');
  const data = event?.data ?? (isContactEvent ? contact : isMessageEvent ? message : undefined) ?? {};
  const facts: EvaluationFacts = { event: { ...(event ?? {}), type, data }, now };
  const contactFact = contact ?? (isContactEvent && isPlainObject(data) ? data : undefined);
  if (contactFact) facts.contact = contactFact;
  if (isMessageEvent && isPlainObject(data)) facts.message = data;
  return facts;
}

function timeOf(value: unknown, ctx: ProblemCollector): Date | undefined {
  if (value === undefined) return new Date();
  const t = typeof value === 'string' ? new Date(value) : undefined;
  if (!t || Number.isNaN(t.getTime())) {
    ctx.error(['now'], 'test-file', `now must be an ISO 8601 date-time, not ${JSON.stringify(value)}`);
    return undefined;
  }
  return t;
}

/** `expect:` as a list (or none), or `{ path, actions }`: undefined when it has a problem. */
function expectation(
  raw: unknown,
  ctx: ProblemCollector,
): { expected: ExpectedAction[] | undefined; expectedPath?: string[] } | undefined {
  if (!isPlainObject(raw)) {
    const expected = expectedActions(raw, ctx, testValidators().action);
    return expected && { expected };
  }
  const expected =
    raw.actions === undefined ? undefined : expectedActions(raw.actions, ctx, testValidators().action);
  if (raw.actions !== undefined && !expected) return undefined;
  const path = Array.isArray(raw.path) ? raw.path.map(String) : undefined;
  return { expected, ...(path ? { expectedPath: path } : {}) };
}
