// `crm-rules test`: runs the *.test.yaml files beside the rules (or the ones named).
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { formatProblems } from '../../language/rules/format/format-problems';
import { isRuleTestFile } from '../../language/rules/format/load-rules';
import { expandInputs } from '../../language/rules/format/rule-inputs';
import { runRuleTests, type RuleTestReport } from '../../language/rules/testing/rule-tests';
import type { CliState, Print } from './cli-io';
import { loadInputs } from './load-inputs';
import { snapshotNames } from '../toolchain/snapshot-names';

interface TestOptions {
  coverage?: boolean;
  snapshot?: string;
}

export function addTest(program: Command, println: Print, eprintln: Print, state: CliState): void {
  program
    .command('test')
    .description('run the *.test.yaml files beside the rules; exit 1 on any failure')
    .argument('[inputs...]', 'rule and test files, directories or globs (default: rules)')
    .option('--coverage', 'list the rules no test case exercises')
    .option('--snapshot <file>', 'CRM snapshot (default: .crm-snapshot.json beside the rules)')
    .action(async (inputs: string[], opts: TestOptions) => {
      state.code = await testCommand(inputs, opts, println, eprintln);
    });
}

async function testCommand(
  inputs: string[],
  opts: TestOptions,
  println: Print,
  eprintln: Print,
): Promise<number> {
  const label = inputs.length > 0 ? inputs.join(' ') : 'rules';
  const loaded = await loadInputs(ruleInputsOf(inputs), opts.snapshot);
  eprintln(loaded.namesNote);
  if (!loaded.result.ruleSet) {
    println(formatProblems(loaded.result.problems, 'text'));
    println(`✘ ${label}: the rules do not validate; fix them before testing`);
    return 1;
  }
  // Rule files named alone still find their tests beside them.
  let { files } = await expandInputs(inputs.length > 0 ? inputs : ['rules'], isRuleTestFile);
  if (files.length === 0) files = (await expandInputs([loaded.home], isRuleTestFile)).files;
  if (files.length === 0) {
    println(`no *.test.yaml files in ${label}`);
    return 0;
  }
  const report = await runRuleTests(loaded.result.ruleSet, files, snapshotNames(loaded.snapshot));
  if (report.problems.length > 0) println(formatProblems(report.problems, 'text'));
  for (const r of report.results) {
    println(`${r.passed ? '✔' : '✘'} ${r.file}:${r.pos.line} ${r.name}`);
    for (const line of r.details) println(`    ${line}`);
  }
  const failed = report.results.filter((r) => !r.passed).length;
  const broken = report.problems.filter((p) => p.severity === 'error').length;
  if (opts.coverage) coverageLines(report, loaded.result.ruleSet.rules).forEach((l) => println(l));
  println(
    `${report.results.length - failed} passed, ${failed} failed${broken ? `, ${broken} problem(s) in test files` : ''}`,
  );
  return failed > 0 || broken > 0 ? 1 : 0;
}

/**
 * A test file named alone (`crm-rules test rules/x.test.yaml`) is run against the rules of its
 * directory, the set it was written for: each test-file input stands for its folder's rules.
 */
export function ruleInputsOf(inputs: readonly string[]): string[] {
  return [...new Set(inputs.map((input) => (isRuleTestFile(input) ? dirname(input) : input)))];
}

function coverageLines(
  report: RuleTestReport,
  rules: readonly { id: string; source: { file: string; line: number } }[],
): string[] {
  const exercised = new Set(report.results.flatMap((r) => r.rules));
  const untested = rules.filter((r) => !exercised.has(r.id));
  return [
    `coverage: ${rules.length - untested.length}/${rules.length} rule(s) exercised by a test`,
    ...untested.map((r) => `  untested: ${r.id} (${r.source.file}:${r.source.line})`),
  ];
}
