// `crm-rules graph`: the rule graph as Mermaid or DOT, for review and for committing beside the
// rules (the output is sorted, so a diff shows what a change does to the graph). It draws rule
// sets with errors too: a loop or a conflict is what it is there to show.
import { writeFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { formatProblem } from '../../language/rules/format/format-problems';
import { formatGraph, type GraphFormat } from '../toolchain/graph-format';
import { buildRuleGraph } from '../toolchain/rule-graph';
import type { CliState, Print } from './cli-io';
import { loadInputs } from './load-inputs';

export function addGraph(program: Command, println: Print, eprintln: Print, state: CliState): void {
  program
    .command('graph')
    .description(
      'draw the rule graph (triggers -> rules -> actions -> events they cause -> rules); loops, conflicts and unreachable rules marked',
    )
    .argument('[inputs...]', 'rule files, directories or globs (default: rules)')
    .addOption(
      new Option('--format <format>', 'output format').choices(['mermaid', 'dot']).default('mermaid'),
    )
    .option('--output <file>', 'write the graph to a file instead of stdout')
    .action(async (inputs: string[], opts: { format: GraphFormat; output?: string }) => {
      const { result } = await loadInputs(inputs);
      const loaded = result.loaded ?? [];
      const errors = result.problems.filter((p) => p.severity === 'error');
      if (loaded.length === 0 && errors.length > 0) {
        for (const p of errors) eprintln(formatProblem(p));
        state.code = 1;
        return;
      }
      const text = formatGraph(buildRuleGraph(loaded), opts.format);
      if (opts.output) {
        await writeFile(opts.output, text);
        eprintln(`✔ ${opts.output}: ${loaded.length} rule(s)`);
      } else println(text.trimEnd());
      // Errors do not stop the drawing; validate is the gate.
      if (errors.length > 0)
        eprintln(`warning: the rule set has ${errors.length} error(s); run crm-rules validate`);
      state.code = 0;
    });
}
