// A newcomer's first hour, as `npm start` runs it: the built engine (dist/src/main.js) as a child
// process with its embedded sandbox, in a directory of its own (rules/, .data/). It must say where
// the console is and how to log in, keep its generated token, show the same demo after a restart
// (no contacts of the previous in-memory sandbox in the mirror), stop on SIGTERM with exit code 0
// and no error, and let `crm-rules snapshot` then `crm-rules forecast rules/` run with no CRM
// environment against it.
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { loadConfig } from '../../src/runtime/config/load-config';
import { DEMO_CONTACT } from '../../src/tooling/demo/demo-first-start';
import { dropDatabase } from '../../src/persistence/schema/migrate';
import { KEYS } from '../support/demo-fixture';
import { api } from '../support/http';
import { eventually } from '../support/polling';
import { testDatabaseUrl } from '../support/test-db';
import { ensureBuilt } from '../support/worker-process';

const ROOT = join(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

interface Started {
  child: ChildProcess;
  /** stdout and stderr, as they came. */
  output: () => string;
  url: string;
}

describe('npm start, the first hour', () => {
  let dir: string;
  let databaseUrl: string;
  let sandboxPort: number;
  let db: Client;
  const prefix = `crmr-test-first-${process.pid}`;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'crmr-first-'));
    cpSync(join(ROOT, 'rules'), join(dir, 'rules'), { recursive: true });
    databaseUrl = await testDatabaseUrl();
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await db?.end();
    if (databaseUrl) await dropDatabase(databaseUrl);
    const redis = new IORedis(loadConfig().redis.url);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the engine as `npm start` does (after set-up); resolves once it printed its banner. */
  async function start(env: Record<string, string> = {}): Promise<Started> {
    // A port of its own for each start: one held since beforeAll may have been taken meanwhile
    // by another test file's process (the CLI steps read it back through sandboxUrl()).
    sandboxPort = await freePort();
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: databaseUrl,
        REDIS_URL: loadConfig().redis.url,
        REDIS_PREFIX: prefix,
        PORT: '0',
        SANDBOX_PORT: String(sandboxPort),
        RULES_WATCH: 'false',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (text += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (text += c));
    const url = await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`engine exited ${child.exitCode}:\n${text}`);
      return /Operator console: (http:\/\/\S+)\/console/.exec(text)?.[1];
    }, 60_000);
    return { child, output: () => text, url };
  }

  /** SIGTERM, then the exit code and every error: a line at level error (50) or above, a stack. */
  async function stop(started: Started): Promise<{ code: number | null; bad: string[] }> {
    const exited = new Promise<number | null>((resolve) =>
      started.child.once('exit', (code) => resolve(code)),
    );
    started.child.kill('SIGTERM');
    const code = await exited;
    const bad = started
      .output()
      .split('\n')
      .filter((line) => {
        if (/Called end on pool|"stack"|^\s+at /.test(line)) return true;
        if (!line.startsWith('{')) return false;
        return (JSON.parse(line) as { level: number }).level >= 50;
      });
    return { code, bad };
  }

  const sandboxUrl = () => `http://127.0.0.1:${sandboxPort}`;
  const sandboxContacts = async () =>
    (
      await api(sandboxUrl(), 'GET', '/v1/contacts?limit=100', undefined, {
        authorization: `Bearer ${KEYS.full}`,
      })
    ).body.data as { id: string; phone: string }[];
  /** Once the mirror's full sync and the demo sweep are done: what they hold. */
  const settled = () =>
    eventually(async () => {
      const sweeps = await db.query(
        `SELECT entered FROM segment_sweeps WHERE rule_id = 'dormant-contacts' AND status = 'succeeded'`,
      );
      const mirror = await db.query(`SELECT id FROM contact_mirror ORDER BY id`);
      const crm = await sandboxContacts();
      const synced = mirror.rows.length === crm.length;
      return sweeps.rows.length === 1 && synced
        ? { entered: sweeps.rows[0].entered as number, mirror: mirror.rows.map((r) => r.id as string), crm }
        : undefined;
    }, 60_000);

  let token = '';
  let firstEntered = 0;

  it('prints the console URL and a generated admin token, kept in .data/, that logs in', async () => {
    const engine = await start();
    const out = engine.output();
    token = /log in with the admin token ([0-9a-f]{48})/.exec(out)?.[1] ?? '';
    expect(token).toHaveLength(48);
    expect(out).toContain('generated for this demo and kept in .data/admin-token');
    expect(out).toContain('set ADMIN_TOKEN to use your own');
    expect(readFileSync(join(dir, '.data', 'admin-token'), 'utf8').trim()).toBe(token);
    expect(statSync(join(dir, '.data', 'admin-token')).mode & 0o777).toBe(0o600);
    const login = await fetch(`${engine.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: engine.url },
      body: `token=${token}`,
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    // The session the login set is not in the log (pino-http logs the response headers).
    const session = /^[^=]+=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    expect(session).toBeTruthy();
    await eventually(async () => engine.output().includes('"url":"/console/login"') || undefined, 10_000);
    expect(engine.output()).not.toContain(session);
    expect(engine.output()).toContain('"set-cookie":"[redacted]"');

    const first = await settled();
    firstEntered = first.entered;
    expect(firstEntered).toBeGreaterThan(0);
    expect(first.crm.filter((c) => c.phone === DEMO_CONTACT.phone)).toHaveLength(1);

    const { code, bad } = await stop(engine);
    expect(bad).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('runs `crm-rules snapshot` then `crm-rules forecast rules/` against it with no CRM environment; the recipes pass its name check', async () => {
    const engine = await start();
    await settled();
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'crm-rules.js'), ...args], {
        cwd: dir,
        // Only where the demo's sandbox listens (this test's own port instead of 4010).
        env: { PATH: process.env.PATH, SANDBOX_PORT: String(sandboxPort) },
        encoding: 'utf8',
      });
    const snapshot = cli('snapshot');
    expect(snapshot.stderr).toContain(`the embedded sandbox at ${sandboxUrl()}`);
    expect(snapshot.stdout).toMatch(/✔ rules\/\.crm-snapshot\.json: \d+ tag/);
    expect(snapshot.stdout).toMatch(/✔ rules\/\.crm-contacts\.ndjson: \d+ contact/);
    expect(snapshot.status).toBe(0);
    const forecast = cli('forecast', 'rules/');
    expect(forecast.stdout).toMatch(/dormant-contacts \(rules\/dormant-sync\.yaml\)\n {2}members now \d+/);
    expect(forecast.status).toBe(0);
    // Every recipe copied into rules/ (a copy of it, beside this snapshot) passes the name check too.
    cpSync(join(dir, 'rules'), join(dir, 'copy', 'rules'), { recursive: true });
    cpSync(join(ROOT, 'recipes'), join(dir, 'copy', 'rules'), { recursive: true, force: false });
    const validate = spawnSync(process.execPath, [join(ROOT, 'bin', 'crm-rules.js'), 'validate', 'rules/'], {
      cwd: join(dir, 'copy'),
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });
    expect(validate.stderr).toContain('names checked against the CRM snapshot');
    expect(validate.stdout).toMatch(/^✔ rules\/: 28 rule\(s\) in 24 file\(s\) are valid/m);
    expect(validate.status).toBe(0);
    const { code, bad } = await stop(engine);
    expect(bad).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('shows the same demo after a restart: same token, one demo contact, a mirror of this sandbox only', async () => {
    const engine = await start();
    expect(engine.output()).toContain(`log in with the admin token ${token}`);
    expect(engine.output()).toContain('the demo token kept in .data/admin-token');
    const again = await settled();
    // The previous sandbox's contacts are gone from the mirror; the sweep enters what it did before.
    expect(again.mirror).toEqual(again.crm.map((c) => c.id).sort());
    expect(again.entered).toBe(firstEntered);
    expect(again.crm.filter((c) => c.phone === DEMO_CONTACT.phone)).toHaveLength(1);
    // Dana Demo keeps one id across restarts (the demo fixture reserves it), so links to her hold.
    expect(again.crm.find((c) => c.phone === DEMO_CONTACT.phone)?.id).toBe(
      'd0000000-0000-4000-8000-000000000042',
    );
    const { code, bad } = await stop(engine);
    expect(bad).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('without a token (ROLE=api) says the console is off, and its 503 is one log line', async () => {
    const engine = await start({ ROLE: 'api' });
    expect(engine.output()).toContain('is off until ADMIN_TOKEN is set');
    expect(engine.output()).not.toContain(token);
    expect((await fetch(`${engine.url}/console/login`)).status).toBe(503);
    await eventually(
      async () => engine.output().includes('GET /console/login answered 503') || undefined,
      10_000,
    );
    const { code, bad } = await stop(engine);
    expect(bad).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('with ADMIN_TOKEN set says so and never prints it; stopped mid-work, it still exits cleanly', async () => {
    const own = randomBytes(24).toString('hex');
    const engine = await start({ ADMIN_TOKEN: own });
    expect(engine.output()).toContain('log in with the admin token you set in ADMIN_TOKEN');
    expect(engine.output()).not.toContain(own);
    const { code, bad } = await stop(engine);
    expect(bad).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);
});
