// `crm-rules run --rule ID --contact ID [--dry-run] [--again] [--no-wait]`: a rule run by hand for
// one contact, through the running engine's admin API (POST /admin/rules/:id/run), like
// `crm-rules plan`: the engine holds the pipeline, the guards and the budget. --dry-run prints the
// explain and writes nothing. A rule that already ran for the contact in the last 24 hours is
// not run again without --again (the notice says when and how it ended): a command typed twice
// must not message a customer twice. Then it waits for the run's outcome and prints it.
import { Option, type Command } from 'commander';
import { loadConfig } from '../../runtime/config/load-config';
import type { CliState, Print } from './cli-io';
import {
  adminTokenOf,
  ago,
  EngineAdminClient,
  UNSETTLED,
  type RunOutcome,
  type RunSummary,
} from './engine-admin-client';

/** How far back a run of the rule for the contact counts as recent (then --again is required). */
export const RECENT_RUN_MS = 24 * 3_600_000;
const ENDED_BADLY = ['failed', 'dead', 'uncertain'];

export interface RunOptions {
  rule: string;
  contact: string;
  dryRun?: boolean;
  /** Run although the rule ran for the contact recently. */
  again?: boolean;
  /** false (--no-wait): print the created run and exit instead of waiting for its outcome. */
  wait?: boolean;
  waitSeconds?: string;
  url?: string;
  format?: 'text' | 'json';
}

interface RunAnswer {
  dryRun: boolean;
  repeated?: boolean;
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
      'run a rule for one contact now, through the running engine (guards, limits and the budget apply), and wait for how it ends; --dry-run shows what would happen and writes nothing',
    )
    .requiredOption('--rule <id>', 'event rule id')
    .requiredOption('--contact <id>', 'CRM contact id')
    .option('--dry-run', 'print the explain only')
    .option('--again', 'run even though the rule ran for this contact in the last 24 hours')
    .option('--no-wait', 'do not wait for the run to end')
    .option('--wait-seconds <n>', 'how long to wait for the outcome', '60')
    .option('--url <url>', 'engine address (default http://HOST:PORT from the environment)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: RunOptions) => {
      state.code = await runCommand(opts, println, (t) => eprintln(t));
    });
}

/** Resolves to the exit code: 0 done, 1 the engine refused, the run failed or ran recently, 2 usage. */
export async function runCommand(
  opts: RunOptions,
  println: Print,
  printErr: (line: string) => void,
  env: Record<string, string | undefined> = process.env,
  root = process.cwd(),
): Promise<number> {
  const config = loadConfig(env);
  const admin = adminTokenOf(config.adminToken, root);
  if (!admin) {
    printErr(
      'run: ADMIN_TOKEN is not set and no .data/admin-token was kept by the demo (manual runs go through the engine admin API)',
    );
    return 2;
  }
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const api = new EngineAdminClient(
    (opts.url ?? `http://${host}:${config.port}`).replace(/\/+$/, ''),
    admin.token,
  );
  try {
    if (!opts.dryRun && !opts.again) {
      const recent = await api.recentRuns(opts.rule, opts.contact, new Date(Date.now() - RECENT_RUN_MS));
      if (recent.length) {
        for (const line of recentNotice(opts, recent, new Date())) printErr(line);
        return 1;
      }
    }
    const res = await api.request<RunAnswer & { message?: unknown }>(
      'POST',
      `/admin/rules/${encodeURIComponent(opts.rule)}/run`,
      { contactId: opts.contact, dryRun: opts.dryRun === true },
    );
    const body = res.body;
    if (res.status !== 200 || !body) {
      printErr(`run: ${res.status} ${typeof body?.message === 'string' ? body.message : 'refused'}`);
      return 1;
    }
    const outcome =
      body.run && opts.wait !== false && UNSETTLED.includes(body.run.status)
        ? await api.waitForOutcome(body.run.id, Math.max(1, Number(opts.waitSeconds ?? 60) || 60) * 1000)
        : undefined;
    if (opts.format === 'json') println(JSON.stringify(outcome ? { ...body, outcome } : body, null, 2));
    else for (const line of [...formatRun(body), ...formatOutcome(outcome, admin.source)]) println(line);
    return outcome && ENDED_BADLY.includes(outcome.status) ? 1 : 0;
  } catch (err) {
    printErr(
      `run: the engine at ${api.base} did not answer (${(err as Error).message}); start it or pass --url`,
    );
    return 1;
  }
}

/** When the rule already ran for the contact, and how each run ended, newest first. */
export function recentNotice(opts: RunOptions, recent: RunSummary[], now: Date): string[] {
  return [
    `run: ${opts.rule} already ran for ${opts.contact} in the last 24 hours:`,
    ...recent.map(
      (r) =>
        `  run ${r.id} ${ago(new Date(r.createdAt), now)}: ${r.status}${r.reason ? ` (${r.reason})` : ''} [${r.triggerKey}]`,
    ),
    'nothing was run; pass --again to run it anyway',
  ];
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

/** How the run ended, action by action; or that it is still going after the wait. */
export function formatOutcome(outcome: RunOutcome | undefined, tokenSource: string): string[] {
  if (!outcome) return [];
  const head = UNSETTLED.includes(outcome.status)
    ? `run ${outcome.id}: still ${outcome.status} after the wait (GET /admin/runs/${outcome.id} shows how it ends)`
    : `run ${outcome.id} ended ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`;
  return [
    head,
    ...outcome.actionResults.map(
      (a) =>
        `  ${a.action.type ?? 'action'}: ${a.status}${a.reason ? ` (${a.reason}${a.errorMessage ? `: ${a.errorMessage}` : ''})` : ''}`,
    ),
    ...(tokenSource === '.data/admin-token' ? ['(admin token from .data/admin-token)'] : []),
  ];
}
