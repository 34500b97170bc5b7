// `crm-rules explain`: one rule against an event (and contact), with the per-condition trace.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { actionLabel } from '../../language/catalogue/catalogue';
import { formatEvaluation } from '../../language/matching/format-explain';
import { formatProblems } from '../../language/rules/format/format-problems';
import { loadRulesFromDir } from '../../language/rules/format/load-rules';
import { factsOf } from '../../language/rules/testing/rule-test-cases';
import { evaluateSegmentRule } from '../../language/rules/testing/rule-tests';
import type { EvaluationFacts, RuleDefinition } from '../../language/rules/format/rule-types';
import { hint } from '../../language/rules/format/suggest';
import {
  isPlaceholder,
  readSnapshot,
  snapshotPath,
  type CrmSnapshot,
} from '../../language/crm-terms/crm-snapshot';
import { snapshotNames } from '../toolchain/snapshot-names';
import type { CliState, Print } from './cli-io';

interface ExplainOptions {
  rule: string;
  event?: string;
  contact?: string;
  message?: string;
  previous?: string;
  now?: string;
  wasInSegment?: boolean;
  dir: string;
}

export function addExplain(program: Command, println: Print, eprintln: Print, state: CliState): void {
  program
    .command('explain')
    .description('evaluate one rule against an event (and contact) and print the per-condition trace')
    .requiredOption('--rule <id>', 'rule id')
    .option('--event <file>', 'event JSON or YAML: { type, data, id?, createdAt? }')
    .option('--contact <file>', 'contact JSON or YAML (default: event.data for contact.* events)')
    .option('--message <file>', 'message JSON or YAML (default: event.data for message.* events)')
    .option(
      '--previous <file>',
      'the contact before the event, for change operators (default: none, first sight)',
    )
    .option('--now <iso>', 'evaluation time (default: event.createdAt, else now)')
    .option('--was-in-segment', 'segment rules: the contact was in the segment at the previous run')
    .option('--dir <dir>', 'rules directory', 'rules')
    .action(async (opts: ExplainOptions) => {
      state.code = await explainCommand(opts, println, eprintln);
    });
}

async function readData(file: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (file === undefined) return undefined;
  const value: unknown = parseYaml(await readFile(file, 'utf8')); // YAML is a superset of JSON
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${file}: expected a JSON or YAML object`);
  return value as Record<string, unknown>;
}

async function explainCommand(opts: ExplainOptions, println: Print, eprintln: Print): Promise<number> {
  const loaded = await loadRulesFromDir(opts.dir);
  if (!loaded.ruleSet) {
    eprintln(formatProblems(loaded.problems, 'text'));
    return 1;
  }
  const set = loaded.ruleSet;
  const rule = set.rule(opts.rule);
  if (!rule) {
    eprintln(
      `unknown rule "${opts.rule}"${hint(
        opts.rule,
        set.rules.map((r) => r.id),
      )}`,
    );
    return 2;
  }
  const input = await readExplainInput(opts);
  if (typeof input === 'string') {
    eprintln(input);
    return 2;
  }
  println(`rule set ${set.version}, now ${input.facts.now.toISOString()}`);
  if (rule.trigger.kind === 'schedule') {
    const outcome = evaluateSegmentRule(
      rule.trigger,
      rule.id,
      rule.actions,
      input.facts,
      opts.wasInSegment === true,
    );
    outcome.explain.forEach((l) => println(l));
    println(`actions: ${outcome.actions.map((a) => actionLabel(a.action)).join(', ') || '(none)'}`);
    return 0;
  }
  if (!input.hasEvent) {
    eprintln(`rule ${rule.id} listens to events: give --event`);
    return 2;
  }
  formatEvaluation(rule, await set.evaluateRule(rule.id, input.facts)).forEach((l) => println(l));
  explainNotes(rule, input.facts).forEach((l) => println(l));
  return 0;
}

/** The facts of the files given, or what is wrong with them. */
async function readExplainInput(
  opts: ExplainOptions,
): Promise<{ facts: EvaluationFacts; hasEvent: boolean } | string> {
  const [event, contact, message, previous] = await Promise.all([
    readData(opts.event),
    readData(opts.contact),
    readData(opts.message),
    readData(opts.previous),
  ]);
  const nowText = opts.now ?? (typeof event?.createdAt === 'string' ? event.createdAt : undefined);
  const now = nowText ? new Date(nowText) : new Date();
  if (Number.isNaN(now.getTime())) return `--now: not a date-time: ${nowText}`;
  const facts = factsOf(event, contact, message, now);
  facts.previous = previous ? { contact: previous } : { missing: 'no --previous given' };
  facts.names = snapshotNames(await readSnapshotOf(opts.dir));
  return { facts, hasEvent: event !== undefined };
}

/** The snapshot beside the rules, if usable: names of change operators resolve through it. */
async function readSnapshotOf(dir: string): Promise<CrmSnapshot | undefined> {
  const read = await readSnapshot(snapshotPath(dir));
  return read && !(read instanceof Error) && !isPlaceholder(read) ? read : undefined;
}

function explainNotes(rule: RuleDefinition, facts: EvaluationFacts): string[] {
  const notes: string[] = [];
  if (!facts.contact && JSON.stringify(rule.conditions ?? {}).includes('"fact":"contact"')) {
    notes.push('note: no contact given (--contact): the contact facts were undefined');
  }
  const events = rule.trigger.kind === 'event' ? rule.trigger.events : [];
  if (!events.includes(facts.event.type)) {
    notes.push(
      `note: ${rule.id} listens to ${events.join(', ')}; a ${facts.event.type} event does not trigger it`,
    );
  }
  return notes;
}
