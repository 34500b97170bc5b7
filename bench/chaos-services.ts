// Processes the chaos suite starts, breaks and restarts: a private Postgres cluster on a free port
// (never the shared 5432), the CRM sandbox and engine processes; the private Redis is
// bench/private-redis.ts, shared with the e2e tests. Everything is ended by pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SANDBOX_MAIN_PATH } from '@crm-rules/crm-sandbox';

export { freePort, PrivateRedis } from './private-redis';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return true;
    await sleep(everyMs);
  }
  return false;
}

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A Postgres cluster of its own (initdb in a temp dir, run as the postgres user when root). */
export class PrivatePostgres {
  readonly dir = mkdtempSync(join(tmpdir(), 'crmr-chaos-pg-'));
  private readonly bin = postgresBin();
  constructor(readonly port: number) {}
  get url() {
    return `postgres://postgres@127.0.0.1:${this.port}/crm_rules_chaos`;
  }
  private run(cmd: string, args: string[]) {
    const asRoot = process.getuid?.() === 0;
    const full = join(this.bin, cmd);
    const r = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  }
  init(): void {
    if (process.getuid?.() === 0) chownSync(this.dir, uid('postgres'), uid('postgres'));
    this.run('initdb', ['-D', this.dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  }
  start(): void {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`;
    this.run('pg_ctl', ['-D', this.dir, '-l', join(this.dir, 'server.log'), '-o', opts, '-w', 'start']);
  }
  stop(): void {
    this.run('pg_ctl', ['-D', this.dir, '-m', 'fast', '-w', 'stop']);
  }
}

function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).sort().reverse();
    for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  }
  const which = spawnSync('sh', ['-c', 'dirname "$(command -v initdb)"'], { encoding: 'utf8' });
  return which.stdout.trim();
}

function uid(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}

/** One line of the sandbox's request log: `[sandbox] POST /v1/... 200 3ms req_...[ unanswered]`. */
export interface CrmRequest {
  at: number;
  method: string;
  path: string;
  status: number;
  /** False when the caller had gone (its timeout) before the answer: carried out all the same. */
  answered: boolean;
}

/** The CRM sandbox in its own process; every request it answers is recorded from its log. */
export class SandboxProcess {
  private child?: ChildProcess;
  url = '';
  readonly requests: CrmRequest[] = [];
  constructor(private readonly env: Record<string, string>) {}
  async start(): Promise<void> {
    const child = spawn(process.execPath, [SANDBOX_MAIN_PATH], {
      env: { ...process.env, ...this.env, SANDBOX_PORT: '0', SANDBOX_LOG: 'true' },
      // Its stack traces of injected faults are expected: not on the console.
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.child = child;
    const lines = createInterface({ input: child.stdout! });
    const listening = new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
      lines.on('line', (line) => {
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m) resolve(m[1]);
        const r = /^\[sandbox\] (\w+) (\S+) (\d{3}) \S+ \S+( unanswered)?$/.exec(line);
        if (r)
          this.requests.push({
            at: Date.now(),
            method: r[1],
            path: r[2],
            status: Number(r[3]),
            answered: !r[4],
          });
      });
    });
    this.url = await listening;
  }
  async stop(): Promise<void> {
    if (!this.child) return;
    this.child.kill('SIGTERM');
    await waitExit(this.child);
  }
}

/** An engine process (dist/src/main.js) of one ROLE; kill() is kill -9. */
export class EngineProcess {
  private child?: ChildProcess;
  constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
    private readonly logDir: string,
  ) {}
  start(): void {
    const log = createWriteStream(join(this.logDir, `${this.name}.log`), { flags: 'a' });
    this.child = spawn(process.execPath, [join(__dirname, '..', 'src', 'main.js')], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.pipe(log);
    this.child.stderr!.pipe(log);
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }
  async kill9(): Promise<void> {
    if (!this.child) return;
    this.child.kill('SIGKILL');
    await waitExit(this.child);
    this.child = undefined;
  }
  async stop(): Promise<void> {
    if (!this.child) return;
    const child = this.child;
    child.kill('SIGTERM');
    const exited = await Promise.race([waitExit(child).then(() => true), sleep(10_000).then(() => false)]);
    if (!exited) child.kill('SIGKILL');
    await waitExit(child);
    this.child = undefined;
  }
}
