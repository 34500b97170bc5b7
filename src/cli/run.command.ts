// `crm-rules run --rule ID --contact ID [--dry-run]`: a rule run by hand for one contact, through
// the running engine's admin API (POST /admin/rules/:id/run), like `crm-rules plan`: the engine
// holds the pipeline, the guards and the budget. --dry-run prints the explain and writes nothing.
import { Option, type Command } from 'commander';
import { loadConfig } from '../config/load-config';
import type { CliState, Print } from './cli-io';

export interface RunOptions {
  rule: string;
  contact: string;
  dryRun?: boolean;
  url?: string;
  format?: 'text' | 'json';
}

interface RunAnswer {
  dryRun: boolean;
  run?: { id: string; status: string; by: string };
  explain: {
    matched: boolean;
    paused: boolean;
    mode: string;
    lines: string[];
    actions: { type: string; verdict: string; reason?: string; detail?: string }[];
  };
}

export function addRun(program: Command, println: Print, eprintln: Print, state: CliState): void {
  program
    .command('run')
    .description(
      'run a rule for one contact now, through the running engine (guards, limits and the budget apply); --dry-run shows what would happen and writes nothing',
    )
    .requiredOption('--rule <id>', 'event rule id')
    .requiredOption('--contact <id>', 'CRM contact id')
    .option('--dry-run', 'print the explain only')
    .option('--url <url>', 'engine address (default http://HOST:PORT from the environment)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: RunOptions) => {
      state.code = await runCommand(opts, println, (t) => eprintln(t));
    });
}

/** Resolves to the exit code: 0 done, 1 the engine refused or failed, 2 usage. */
export async function runCommand(
  opts: RunOptions,
  println: Print,
  printErr: (line: string) => void,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const config = loadConfig(env);
  if (!config.adminToken) {
    printErr('run: ADMIN_TOKEN is not set (manual runs go through the engine admin API)');
    return 2;
  }
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const base = (opts.url ?? `http://${host}:${config.port}`).replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}/admin/rules/${encodeURIComponent(opts.rule)}/run`, {
      method: 'POST',
      headers: { 'x-admin-token': config.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ contactId: opts.contact, dryRun: opts.dryRun === true }),
    });
  } catch (err) {
    printErr(
      `run: the engine is not reachable at ${base} (${(err as Error).message}); start it or pass --url`,
    );
    return 1;
  }
  const body = (await res.json().catch(() => undefined)) as (RunAnswer & { message?: unknown }) | undefined;
  if (!res.ok || !body) {
    printErr(`run: ${res.status} ${typeof body?.message === 'string' ? body.message : res.statusText}`);
    return 1;
  }
  if (opts.format === 'json') println(JSON.stringify(body, null, 2));
  else for (const line of formatRun(body)) println(line);
  return 0;
}

export function formatRun(answer: RunAnswer): string[] {
  const { explain } = answer;
  const lines = [...explain.lines];
  if (explain.paused) lines.push('rule is paused: a run would be recorded suppressed (paused)');
  if (explain.mode === 'shadow') lines.push('rule is in shadow mode: nothing would be sent');
  for (const a of explain.actions)
    lines.push(
      `  ${a.type}: ${a.verdict.replace('_', ' ')}${a.reason ? ` (${a.reason}: ${a.detail})` : a.detail ? ` (${a.detail})` : ''}`,
    );
  lines.push(
    answer.run
      ? `run ${answer.run.id}: ${answer.run.status} (manual, by ${answer.run.by})`
      : 'dry run: nothing was written',
  );
  return lines;
}
