// Engine worker processes (ROLE=worker, the compiled engine) for tests that kill one with SIGKILL
// mid-work and start another: the api process is the harness, the workers share its database,
// Redis prefix, sandbox and rules.
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS } from './demo-fixture';
import type { Harness } from './engine-harness';

const root = join(__dirname, '..', '..');
const MAIN_JS = join(root, 'dist', 'src', 'main.js');

/** Newest modification time of the files under `dir`. */
function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
    ),
  );
}

/** The workers run the compiled engine: build it when missing or older than the sources (never
 * otherwise, so a parallel test's workers never load a half-written dist). */
export function ensureBuilt(): void {
  const built = existsSync(MAIN_JS) ? statSync(MAIN_JS).mtimeMs : 0;
  if (built < Math.max(newest(join(root, 'src')), newest(join(root, 'migrations'))))
    spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

export interface WorkerProcess {
  child: ChildProcess;
  /** When the worker logged that it listens (Nest booted); rejects if it exits before. */
  ready: Promise<number>;
  /** Its address (from the same line): its /health and /metrics. */
  url: Promise<string>;
}

/** The worker processes one test file started; `killAll` in its afterAll. */
/** The environment of a ROLE=worker engine (process or in-process) against the harness's services. */
export function workerEnv(h: Harness): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ROLE: 'worker',
    PORT: '0',
    CRM_BASE_URL: h.sandboxUrl,
    CRM_API_KEY: KEYS.full,
    // A fresh Redis prefix has no budget history: a cold start (tested in test/outbound/crm-gateway) would hold
    // the first call for a whole window, which is not what these tests are about.
    CRM_BUDGET_COLD_START: 'false',
    DATABASE_URL: h.config.databaseUrl,
    REDIS_URL: h.config.redis.url,
    REDIS_PREFIX: h.config.redis.prefix,
    RULES_DIR: h.rulesDir,
  };
}

export class WorkerProcesses {
  private readonly children: ChildProcess[] = [];

  /** Starts a ROLE=worker process against the harness's services; `env` overrides the defaults. */
  start(h: Harness, env: Record<string, string> = {}): WorkerProcess {
    const child = spawn(process.execPath, [MAIN_JS], {
      cwd: root,
      // info: the "engine listening" line tells when the worker is up.
      env: { ...workerEnv(h), LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.children.push(child);
    let listening!: (url: string) => void;
    const url = new Promise<string>((resolve) => (listening = resolve));
    const ready = new Promise<number>((resolve, reject) => {
      // Read every line (a full pipe would block the worker's logger); note when it is up.
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        const m = /engine listening on (http:\/\/[0-9.:]+)/.exec(chunk);
        if (m) listening(m[1]);
        if (chunk.includes('engine listening')) resolve(Date.now());
      });
      child.once('exit', (code, signal) =>
        reject(new Error(`worker exited (${signal ?? code}) before it was up`)),
      );
    });
    // A test that never waits for `ready` must not see an unhandled rejection when it kills the worker.
    // eslint-disable-next-line no-restricted-syntax -- `ready` asserts nothing; a test that awaits it sees the rejection
    ready.catch(() => undefined);
    return { child, ready, url };
  }

  killAll(): void {
    for (const child of this.children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
