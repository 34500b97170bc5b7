// `crm-rules plan`: asks the running engine, which holds the mirror, the memberships and the budget.
import { Option, type Command } from 'commander';
import { planCommand, type PlanOptions } from '../../pipeline/segments/plan/plan-command';
import type { CliState, Print } from './cli-io';

export function addPlan(program: Command, println: Print, eprintln: Print, state: CliState): void {
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
      state.code = await planCommand(opts, println, (t) => eprintln(t));
    });
}
