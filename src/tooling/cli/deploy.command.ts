// `crm-rules deploy status | history | rollback [COMMIT] | pin COMMIT | unpin | fetch`: the
// deployed rule-set versions (issue 31) through the running engine's admin API (/admin/deploy/*):
// the engine holds the versions in Postgres and switches every process together.
import type { Command } from 'commander';
import type { CliState, Print } from './cli-io';
import { callEngine, type EngineCall as Call } from './engine-call';

type Version = {
  commit: string;
  status: string;
  message: string | null;
  author: string | null;
  activatedBy: string | null;
  activatedAt: string | null;
  pinned: boolean;
  report: { file: string; line: number; col: number; severity: string; message: string }[];
};

export function addDeploy(program: Command, println: Print, eprintln: Print, state: CliState): void {
  const deploy = program
    .command('deploy')
    .description(
      'the deployed rule-set versions of the running engine: status, history, rollback, pin, unpin',
    )
    .option('--url <url>', 'engine address (default http://HOST:PORT from the environment)')
    .option('--json', 'print the engine answer as JSON');
  const run = (call: Call, format: (body: unknown) => string[]) => async () => {
    const opts = deploy.opts<{ url?: string; json?: boolean }>();
    state.code = await callEngine(
      'deploy',
      call,
      opts,
      (body) => (opts.json ? [JSON.stringify(body, null, 2)] : format(body)),
      println,
      eprintln,
    );
  };
  deploy
    .command('status')
    .description('the live commit, the pin, git reachability')
    .action(run({ method: 'GET', path: 'deploy' }, formatStatus));
  deploy
    .command('history')
    .description('versions newest first with their result (activated, refused with problems, rolled back)')
    .action(run({ method: 'GET', path: 'deploy/history' }, (b) => (b as Version[]).flatMap(formatVersion)));
  deploy
    .command('rollback [commit]')
    .description('activate COMMIT, or the version active before the live one')
    .action((commit?: string) =>
      run({ method: 'POST', path: 'deploy/rollback', body: commit ? { commit } : {} }, done)(),
    );
  deploy
    .command('pin <commit>')
    .description('activate COMMIT and hold it until unpin, whatever is pushed')
    .action((commit: string) => run({ method: 'POST', path: 'deploy/pin', body: { commit } }, done)());
  deploy
    .command('unpin')
    .description('lift the pin')
    .action(run({ method: 'POST', path: 'deploy/unpin' }, done));
  deploy
    .command('fetch')
    .description('fetch the followed git ref now')
    .action(run({ method: 'POST', path: 'deploy/fetch' }, done));
}

function done(body: unknown): string[] {
  const b = body as { commit?: string; note?: string };
  return [[b.commit ? `active: ${b.commit}` : 'done', b.note].filter(Boolean).join(' — ')];
}

function formatStatus(body: unknown): string[] {
  const b = body as {
    source: { kind: string; url?: string; ref?: string; dir?: string };
    active: Version | null;
    pinned: string | null;
    heldBack: string | null;
    git?: { reachable: boolean; message?: string; since?: string };
  };
  const lines = [
    `source: ${b.source.kind === 'git' ? `${b.source.url} @ ${b.source.ref}` : `directory ${b.source.dir}`}`,
    b.active
      ? `live: ${b.active.commit} (${b.active.message ?? ''}) by ${b.active.activatedBy ?? '?'} at ${b.active.activatedAt ?? '?'}`
      : 'live: none',
  ];
  if (b.pinned) lines.push(`pinned: ${b.pinned}${b.heldBack ? ` (holding back ${b.heldBack})` : ''}`);
  if (b.git && !b.git.reachable) lines.push(`git unreachable since ${b.git.since}: ${b.git.message}`);
  return lines;
}

function formatVersion(v: Version): string[] {
  const lines = [
    `${v.commit.slice(0, 12)} ${v.status}${v.pinned ? ' (pinned)' : ''}  ${v.message ?? ''}  ${v.author ?? ''}`,
  ];
  for (const p of v.report.filter((x) => x.severity === 'error'))
    lines.push(`  ${p.file}:${p.line}:${p.col} ${p.message}`);
  return lines;
}
