// npm run bench:intake — signed, unique webhook deliveries against the real intake (verify, commit
// to Postgres, enqueue to Redis), side by side with a bare endpoint of the same server, same run.
import autocannon from 'autocannon';
import { DataSource } from 'typeorm';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { RequestListener, Server } from 'node:http';
import { loadConfig } from '../src/runtime/config/load-config';
import { startEngine } from '../src/engine';
import { benchDatabase, printTable } from './bench-support';
import { cpuMs } from './throughput-support';

const SECRET = 'whsec_bench_0123456789abcdef0123456789';
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

/** autocannon in a child process: the server keeps its own core. */
function run(url: string, signed: boolean): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'intake-load.js'), [
      url,
      signed ? SECRET : '-',
      String(DURATION_S),
      String(CONNECTIONS),
    ]);
    child.once('message', (m: autocannon.Result & { error?: string }) =>
      m.error ? reject(new Error(m.error)) : resolve(m),
    );
    child.once('error', reject);
  });
}

async function main() {
  const db = await benchDatabase('intake');
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: db.url,
    ROLE: 'api', // intake only: no workers competing for the two cores
    CRM_WEBHOOK_SECRET: SECRET,
    PORT: '0',
    SANDBOX_PORT: '0',
    REDIS_PREFIX: `crmr-bench-${randomUUID().slice(0, 6)}`,
    LOG_LEVEL: 'error',
  });
  const engine = await startEngine(config, { quiet: true, subscribe: false });
  // The bare endpoint sits where the intake sits (ahead of the framework) and does nothing:
  // the difference between the two rows is the intake's own work.
  const server = engine.app.getHttpServer() as Server;
  const [current] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    if (req.url !== '/__bare') return current(req, res);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
  });
  try {
    await run(`${engine.url}/__bare`, false); // warm-up
    const bare = await run(`${engine.url}/__bare`, false);
    const pg = engine.app.get(DataSource);
    // Cost per event, steadier than the rate on a shared machine: this process's CPU (the intake),
    // the CPU of the benchmark database's Postgres backends, and its commits.
    const backends = async () =>
      (await pg.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)).map(
        (r: { pid: number }) => r.pid,
      ) as number[];
    const commits = async () =>
      Number(
        (
          await pg.query(`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`)
        )[0].n,
      );
    const pgCpu = async () => (await backends()).reduce((sum, pid) => sum + cpuMs(pid), 0);
    const [cpu0, pgCpu0, commits0] = [process.cpuUsage(), await pgCpu(), await commits()];
    const intake = await run(`${engine.url}/webhooks/crm`, true);
    const cpu = process.cpuUsage(cpu0);
    const [pgCpu1, commits1] = [await pgCpu(), await commits()];
    const [{ n }] = await pg.query(`SELECT count(*)::int AS n FROM inbox_events`);
    const row = (name: string, r: autocannon.Result) => ({
      endpoint: name,
      'req/s': Math.round(r.requests.average),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    });
    console.log(
      `\nintake benchmark: ${CONNECTIONS} connections, ${DURATION_S} s each, unique signed events\n`,
    );
    printTable([
      row('bare endpoint (same server)', bare),
      row('POST /webhooks/crm (verify+commit+enqueue)', intake),
    ]);
    console.log(
      `\nevents committed to Postgres: ${n} (intake answered 2xx to ${intake.requests.total - intake.non2xx})`,
    );
    console.log(`intake / bare throughput: ${(intake.requests.average / bare.requests.average).toFixed(2)}`);
    console.log(
      `per event: intake process CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(3)} ms, ` +
        `Postgres backends CPU ${((pgCpu1 - pgCpu0) / n).toFixed(3)} ms, ` +
        `${(n / Math.max(1, commits1 - commits0)).toFixed(1)} events per commit`,
    );
  } finally {
    await engine.close();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
