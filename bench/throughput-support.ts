// Helpers of bench:throughput: its rule set, engine processes started by ROLE, and what is read
// from them (RSS and CPU from /proc, counters from /metrics).
import { BENCH_SEALING_KEY } from './bench-support';
import { ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './private-redis';
import { generateRules, KINDS } from './rules-fixture';

export const SEGMENT_RULE = 'tp-segment';
export const VIP_TAG_ID = '7a000000-0000-4000-8000-000000000002';
/** Rules every contact.updated of the load meets: both evaluated, each writes a run. */
export const RUNS_PER_EVENT = 2;

/**
 * 500 rules: 497 of the rules benchmark on the other kinds, two on contact.updated (the load's
 * kind) and one segment rule whose sweep fills the mirror (its filter matches next to nobody).
 */
export function writeRules(dir: string): void {
  const others = generateRules(
    497,
    KINDS.filter((k) => k !== 'contact.updated'),
  );
  const own = [
    'rule: tp-upgrade\non: contact.updated\nif:\n  all:\n    - { fact: contact.customFields.plan, operator: equal, value: enterprise }\ndo: [{ add-tag: vip }]\n',
    'rule: tp-archived\non: contact.updated\nif:\n  all:\n    - { fact: contact.status, operator: equal, value: archived }\ndo: [{ add-tag: customer }]\n',
    `rule: ${SEGMENT_RULE}\non:\n  schedule: "0 0 1 1 *"\n  segment:\n    filters: { tagIds: [${VIP_TAG_ID}], status: archived, isBlocked: true, createdAfter: now-2d }\nwhen: entered\ndo: [{ add-tag: customer }]\n`,
  ];
  writeFileSync(join(dir, 'rules.yaml'), [others, ...own].join('---\n'));
}

export { freePort };

/** The engine's heap settings, as the Dockerfile's CMD and `npm start` run it (docs/BENCHMARKS.md, Memory). */
export const ENGINE_NODE_FLAGS = ['--max-old-space-size=512', '--max-semi-space-size=8'];

export interface EngineProcess {
  role: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** `node dist/src/main.js` with ROLE and a port of its own; resolves once /health answers 200. */
export async function startEngineProcess(
  role: string,
  env: Record<string, string>,
  nodeFlags: readonly string[] = ENGINE_NODE_FLAGS,
): Promise<EngineProcess> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: every engine process (API and workers) writes a V8 CPU profile there when
  // it stops, named with its pid (printed below); bench/cpu-profile-top.ts reads one.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...nodeFlags, ...profile, join(__dirname, '..', 'src', 'main.js')], {
    env: { ...process.env, ...env, ROLE: role, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.once('exit', () => child.kill()); // never outlive the benchmark, even when it fails
  if (profile.length) console.log(`cpu profile of the ${role} process: pid ${child.pid}`);
  const url = `http://127.0.0.1:${port}`;
  if (env.ADMIN_TOKEN) METRICS_TOKENS.set(url, env.ADMIN_TOKEN);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${role} process exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${role} process not healthy after 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { role, url, child, stop };
}

/** A bench script of dist/bench in a child process; resolves with its first message. */
export function forkBench<T>(script: string, args: string[]): { child: ChildProcess; message: Promise<T> } {
  const child = fork(join(__dirname, script), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const message = new Promise<T>((resolve, reject) => {
    child.once('message', (m: T & { error?: string }) => (m.error ? reject(new Error(m.error)) : resolve(m)));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, message };
}

export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** User + system CPU time of a process in ms (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0; // gone
  }
}

/** /metrics takes a credential: each engine process's ADMIN_TOKEN, by its URL. */
const METRICS_TOKENS = new Map<string, string>();

export async function metricsText(url: string): Promise<string> {
  const token = METRICS_TOKENS.get(url);
  const res = await fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return res.text();
}

/** Sum of a Prometheus counter's samples whose labels contain `filter`. */
export async function counter(url: string, name: string, filter = ''): Promise<number> {
  const text = await metricsText(url);
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || line.startsWith('#') || !line.includes(filter)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== '{' && rest[0] !== ' ') continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** A counter's samples summed per value of one label, over several processes. */
export async function counterBy(
  urls: string[],
  name: string,
  label: string,
): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  const re = new RegExp(`^${name}\\{[^}]*${label}="([^"]*)"[^}]*\\} (\\S+)$`);
  for (const url of urls) {
    for (const line of (await metricsText(url)).split('\n')) {
      const m = re.exec(line);
      if (m) sums[m[1]] = (sums[m[1]] ?? 0) + Number(m[2]);
    }
  }
  return sums;
}

/** The environment of a bench's engine processes (API and workers): one definition for every bench. */
export function benchEngineEnv(o: {
  databaseUrl: string;
  redisPrefix: string;
  crmUrl: string;
  rateLimit: number;
  rateWindowMs: number;
  webhookSecret: string;
  adminToken: string;
  rulesDir: string;
  /** DATABASE_POOL_MAX when several processes share one server's connections. */
  poolMax?: number;
}): Record<string, string> {
  return {
    DATABASE_URL: o.databaseUrl,
    ...(o.poolMax ? { DATABASE_POOL_MAX: String(o.poolMax) } : {}),
    REDIS_PREFIX: o.redisPrefix,
    CRM_BASE_URL: o.crmUrl,
    CRM_API_KEY: 'sk_demo_full',
    WEBHOOK_SECRET_KEY: BENCH_SEALING_KEY,
    CRM_RATE_LIMIT: String(o.rateLimit),
    CRM_RATE_WINDOW_MS: String(o.rateWindowMs),
    CRM_WEBHOOK_SECRET: o.webhookSecret,
    ADMIN_TOKEN: o.adminToken,
    RULES_DIR: o.rulesDir,
    RULES_WATCH: 'false',
    LOG_LEVEL: 'warn',
  };
}
