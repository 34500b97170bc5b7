// `crm-rules validate`: YAML, schema and semantics of every rule file.
import { Option, type Command } from 'commander';
import { formatProblems, type ProblemFormat } from '../../language/rules/format/format-problems';
import type { LoadResult } from '../../language/rules/format/load-rules';
import type { CliState, Print } from './cli-io';
import { loadInputs } from './load-inputs';
import { loadConfig } from '../../runtime/config/load-config';

export function addValidate(program: Command, println: Print, eprintln: Print, state: CliState): void {
  program
    .command('validate')
    .description(
      'check rule files: YAML, schema, semantics, and names against the CRM snapshot; exit 1 on any error',
    )
    .argument('[inputs...]', 'rule files, directories or globs (default: rules)')
    .option('--snapshot <file>', 'CRM snapshot (default: .crm-snapshot.json beside the rules)')
    .option(
      '--allowed-hosts <hosts>',
      'hosts http-request may call, comma-separated (default: HTTP_ACTION_ALLOWED_HOSTS of the configuration)',
    )
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json', 'github']).default('text'),
    )
    .action(
      async (inputs: string[], opts: { format: ProblemFormat; snapshot?: string; allowedHosts?: string }) => {
        const dir = inputs.length > 0 ? inputs.join(' ') : 'rules';
        const { result, namesNote } = await loadInputs(inputs, opts.snapshot, {
          allowedHosts: allowedHostsOf(opts.allowedHosts),
          secretHosts: secretHostsOf(),
        });
        eprintln(namesNote);
        state.code = result.ruleSet ? 0 : 1;
        if (opts.format === 'json') return println(JSON.stringify(summary(result), null, 2));
        if (result.problems.length > 0) println(formatProblems(result.problems, opts.format));
        println(summaryLine(dir, result));
      },
    );
}

/** The flag's list, else the configuration's; undefined (no check) when the configuration is invalid. */
function allowedHostsOf(flag: string | undefined): string[] | undefined {
  if (flag !== undefined)
    return flag
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
  try {
    return loadConfig().httpAction.allowedHosts;
  } catch {
    return undefined;
  }
}

/** The configuration's HTTP_ACTION_SECRET_HOSTS; undefined (no check) when it is invalid. */
function secretHostsOf(): Record<string, string[]> | undefined {
  try {
    return loadConfig().httpAction.secretHosts;
  } catch {
    return undefined;
  }
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
