// `crm-rules`: validate, test and explain rules with no Postgres, Redis or network.
// `run(argv)` is the whole CLI, so tests call it in-process; bin/crm-rules.js only wires it
// to the process. New commands (e.g. `plan`) are one more addCommand in buildProgram.
import { readFile } from 'node:fs/promises';
import { Command, CommanderError, Option } from 'commander';
import { parse as parseYaml } from 'yaml';
import { actionText, formatEvaluation } from './matching/format-explain';
import { formatProblems, type ProblemFormat } from './rules/format-problems';
import { isRuleTestFile, loadRulesFromDir, readYamlFiles, type LoadResult } from './rules/load-rules';
import { factsOf } from './rules/rule-test-cases';
import { evaluateSegmentRule, runRuleTests } from './rules/rule-tests';
import type { EvaluationFacts, RuleDefinition } from './rules/rule-types';
import { hint } from './rules/suggest';
import { planCommand, type PlanOptions } from './segments/plan-command';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

const processIo: CliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** Runs the CLI and resolves to the exit code (0 ok, 1 problems or failures, 2 usage errors). */
export async function run(argv: string[], io: CliIo = processIo): Promise<number> {
  const state = { code: 0 };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return state.code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    io.err(`crm-rules: ${(err as Error).message}\n`);
    return 2;
  }
}

function buildProgram(io: CliIo, state: { code: number }): Command {
  const program = new Command('crm-rules')
    .description('Validate, test and explain CRM automation rules (YAML).')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  const println = (line = '') => io.out(`${line}\n`);
  addValidate(program, println, state);
  program
    .command('test')
    .description('run the *.test.yaml files beside the rules; exit 1 on any failure')
    .argument('[dir]', 'rules directory', 'rules')
    .action(async (dir: string) => {
      state.code = await testCommand(dir, println);
    });
  addExplain(program, println, (t) => io.err(`${t}\n`), state);
  addPlan(program, println, (t) => io.err(`${t}\n`), state);
  return program;
}

type Print = (line?: string) => void;

/** `plan` asks the running engine: it holds the mirror, the memberships and the budget. */
function addPlan(
  program: Command,
  println: Print,
  printErr: (t: string) => void,
  state: { code: number },
): void {
  program
    .command('plan')
    .description(
      'what the next sweep of a segment rule would do: who enters and leaves, actions, CRM calls, time at the current budget (asks the running engine; writes nothing)',
    )
    .requiredOption('--rule <id>', 'segment rule id')
    .option('--url <url>', 'engine address (default http://HOST:PORT from the environment)')
    .option('--sample <n>', 'contacts listed per side', '20')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: PlanOptions) => {
      state.code = await planCommand(opts, println, printErr);
    });
}

function addValidate(program: Command, println: Print, state: { code: number }): void {
  program
    .command('validate')
    .description('check every rule file: YAML, schema and semantics; exit 1 on any error')
    .argument('[dir]', 'rules directory', 'rules')
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'),
    )
    .action(async (dir: string, opts: { format: ProblemFormat }) => {
      const result = await loadRulesFromDir(dir);
      state.code = result.ruleSet ? 0 : 1;
      if (opts.format === 'json') return println(JSON.stringify(summary(result), null, 2));
      if (result.problems.length > 0) println(formatProblems(result.problems, opts.format));
      println(summaryLine(dir, result));
    });
}

function addExplain(
  program: Command,
  println: Print,
  eprintln: (line: string) => void,
  state: { code: number },
): void {
  program
    .command('explain')
    .description('evaluate one rule against an event (and contact) and print the per-condition trace')
    .requiredOption('--rule <id>', 'rule id')
    .option('--event <file>', 'event JSON or YAML: { type, data, id?, createdAt? }')
    .option('--contact <file>', 'contact JSON or YAML (default: event.data for contact.* events)')
    .option('--message <file>', 'message JSON or YAML (default: event.data for message.* events)')
    .option('--now <iso>', 'evaluation time (default: event.createdAt, else now)')
    .option('--was-in-segment', 'segment rules: the contact was in the segment at the previous run')
    .option('--dir <dir>', 'rules directory', 'rules')
    .action(async (opts: ExplainOptions) => {
      state.code = await explainCommand(opts, println, eprintln);
    });
}

function summary(result: LoadResult) {
  const errors = result.problems.filter((p) => p.severity === 'error').length;
  return {
    ok: errors === 0,
    version: result.ruleSet?.version,
    rules: result.ruleSet?.rules.length,
    errors,
    warnings: result.problems.length - errors,
    problems: result.problems,
  };
}

function summaryLine(dir: string, result: LoadResult): string {
  const s = summary(result);
  if (!result.ruleSet) return `✘ ${dir}: ${s.errors} error(s), ${s.warnings} warning(s)`;
  const files = new Set(result.ruleSet.rules.map((r) => r.source.file)).size;
  const warn = s.warnings ? `, ${s.warnings} warning(s)` : '';
  return `✔ ${dir}: ${s.rules} rule(s) in ${files} file(s) are valid (rule set ${s.version})${warn}`;
}

async function testCommand(dir: string, println: Print): Promise<number> {
  const loaded = await loadRulesFromDir(dir);
  if (!loaded.ruleSet) {
    println(formatProblems(loaded.problems, 'text'));
    println(`✘ ${dir}: the rules do not validate; fix them before testing`);
    return 1;
  }
  const files = await readYamlFiles(dir, isRuleTestFile);
  if (files.length === 0) {
    println(`no *.test.yaml files in ${dir}`);
    return 0;
  }
  const report = await runRuleTests(loaded.ruleSet, files);
  if (report.problems.length > 0) println(formatProblems(report.problems, 'text'));
  for (const r of report.results) {
    println(`${r.passed ? '✔' : '✘'} ${r.file}:${r.pos.line} ${r.name}`);
    for (const line of r.details) println(`    ${line}`);
  }
  const failed = report.results.filter((r) => !r.passed).length;
  const broken = report.problems.filter((p) => p.severity === 'error').length;
  println(
    `${report.results.length - failed} passed, ${failed} failed${broken ? `, ${broken} problem(s) in test files` : ''}`,
  );
  return failed > 0 || broken > 0 ? 1 : 0;
}

interface ExplainOptions {
  rule: string;
  event?: string;
  contact?: string;
  message?: string;
  now?: string;
  wasInSegment?: boolean;
  dir: string;
}

async function readData(file: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (file === undefined) return undefined;
  const value: unknown = parseYaml(await readFile(file, 'utf8')); // YAML is a superset of JSON
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${file}: expected a JSON or YAML object`);
  return value as Record<string, unknown>;
}

async function explainCommand(
  opts: ExplainOptions,
  println: Print,
  eprintln: (line: string) => void,
): Promise<number> {
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
    println(`actions: ${outcome.actions.map((a) => actionText(a.action)).join(', ') || '(none)'}`);
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
  const [event, contact, message] = await Promise.all([
    readData(opts.event),
    readData(opts.contact),
    readData(opts.message),
  ]);
  const nowText = opts.now ?? (typeof event?.createdAt === 'string' ? event.createdAt : undefined);
  const now = nowText ? new Date(nowText) : new Date();
  if (Number.isNaN(now.getTime())) return `--now: not a date-time: ${nowText}`;
  return { facts: factsOf(event, contact, message, now), hasEvent: event !== undefined };
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
