// `crm-rules test`: runs the *.test.yaml files beside the rules.
import type { Command } from 'commander';
import { formatProblems } from '../rules/format-problems';
import { isRuleTestFile, loadRulesFromDir, readYamlFiles } from '../rules/load-rules';
import { runRuleTests } from '../rules/rule-tests';
import type { CliState, Print } from './cli-io';

export function addTest(program: Command, println: Print, state: CliState): void {
  program
    .command('test')
    .description('run the *.test.yaml files beside the rules; exit 1 on any failure')
    .argument('[dir]', 'rules directory', 'rules')
    .action(async (dir: string) => {
      state.code = await testCommand(dir, println);
    });
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
