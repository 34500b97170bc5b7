#!/usr/bin/env node
// Idempotent set-up run by `prestart` and `pretest` (and usable alone: `npm run setup`).
//  1. installs dependencies when package-lock.json changed since the last install;
//  2. builds the workspace packages (packages/*) when changed, then compiles src/ and migrations/ with
//     swc (about a second; benches build apart: npm run build:bench);
//  3. finds Postgres and Redis via DATABASE_URL / REDIS_URL (defaults: localhost); when none answers
//     it starts local ones from installed binaries under .data/, or stops with the exact command to run;
//  4. creates the database when missing and runs pending migrations.
//  5. with --browser (npm test): makes sure Chromium is there for the console's browser tests,
//     installing Debian's package when it can (root + apt-get), else printing the command.
// Flags: --no-services (steps 1-2 only), --no-migrate (skip step 4), --browser (step 5).
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dataDir = path.join(root, '.data');
const runtimeEnvFile = path.join(dataDir, 'runtime.env');
const args = new Set(process.argv.slice(2));
const t0 = Date.now();
const log = (msg) => process.stderr.write(`[setup] ${msg}\n`);

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function lockHash() {
  const lock = path.join(root, 'package-lock.json');
  return fs.existsSync(lock)
    ? require('node:crypto').createHash('sha256').update(fs.readFileSync(lock)).digest('hex')
    : 'none';
}

/**
 * Installs (`npm ci`, the lock as is) when node_modules is missing or was installed from another
 * package-lock.json. An install made by hand (`npm ci`) after the last lock change counts as done.
 */
function installDependencies() {
  const stampFile = path.join(root, 'node_modules', '.crmr-install-stamp');
  const stamp = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8') : '';
  const hasSwc = fs.existsSync(path.join(root, 'node_modules', '.bin', 'swc'));
  if (stamp && stamp === lockHash() && hasSwc) return;
  const installedByHand =
    mtime(path.join(root, 'node_modules', '.package-lock.json')) >=
    mtime(path.join(root, 'package-lock.json'));
  if (!stamp && hasSwc && installedByHand) {
    fs.writeFileSync(stampFile, lockHash());
    return;
  }
  log('installing dependencies (npm ci)...');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail('npm ci failed; see the output above');
  fs.writeFileSync(stampFile, lockHash());
}

function newestMtime(dir) {
  // A directory's own mtime changes when a file is added or deleted in it.
  let newest = mtime(dir);
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : mtime(full));
  }
  return newest;
}

/**
 * The workspace packages (package.json `workspaces`, in build order: a package comes after those
 * it imports), each built by its own `npm run build` (swc, then tsc's declarations) into its dist/.
 */
function workspaces() {
  return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces ?? [];
}

/** Builds a package when a file of its src/ (or its package.json, its tsconfigs, .swcrc) changed since. */
function buildPackage(dir) {
  const full = path.join(root, dir);
  const stamp = path.join(full, 'dist', '.build-stamp');
  const newest = Math.max(
    newestMtime(path.join(full, 'src')),
    ...['package.json', 'tsconfig.json', 'tsconfig.build.json'].map((f) => mtime(path.join(full, f))),
    mtime(path.join(root, '.swcrc')),
  );
  if (mtime(stamp) > newest) return;
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: full, stdio: 'inherit' });
  fs.writeFileSync(stamp, new Date().toISOString());
}

/**
 * Compiles with swc (about a second); skipped when nothing changed since the last build. The
 * packages first: the engine's dist/ requires them through node_modules/@crm-rules (links to
 * packages/*), which load their own dist/.
 */
function build() {
  for (const dir of workspaces()) buildPackage(dir);
  const stamp = path.join(root, 'dist', '.build-stamp');
  const sources = ['src', 'migrations'].filter((d) => fs.existsSync(path.join(root, d)));
  const newest = Math.max(
    ...sources.map((d) => newestMtime(path.join(root, d))),
    mtime(path.join(root, '.swcrc')),
  );
  if (mtime(stamp) > newest) return;
  const swc = path.join(root, 'node_modules', '.bin', 'swc');
  for (const dir of sources) {
    // From scratch: a deleted source (a migration!) must not live on in dist.
    fs.rmSync(path.join(root, 'dist', dir), { recursive: true, force: true });
    execFileSync(swc, [dir, '-d', `dist/${dir}`, '--strip-leading-paths', '--copy-files', '-q'], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  fs.writeFileSync(stamp, new Date().toISOString());
}

/** The engine's own reader of .data/runtime.env (compiled by the build step just before). */
function readRuntimeEnv() {
  return require(path.join(root, 'dist', 'src', 'runtime', 'config', 'load-config.js')).readRuntimeEnv(root);
}

function writeRuntimeEnv(env) {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(
    runtimeEnvFile,
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') + '\n',
  );
}

function canConnect(host, port, timeoutMs = 800) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function fail(message) {
  log(`ERROR: ${message}`);
  process.exit(1);
}

function findBinary(name, dirs) {
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

function postgresBinDirs() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return [];
  return fs
    .readdirSync(base)
    .sort()
    .reverse()
    .map((v) => path.join(base, v, 'bin'));
}

/** Starts a private Postgres on port 55432 under .data/pg (as the postgres user when run as root). */
function startLocalPostgres() {
  const initdb = findBinary('initdb', postgresBinDirs());
  const pgCtl = findBinary('pg_ctl', postgresBinDirs());
  if (!initdb || !pgCtl) {
    fail(
      'no Postgres answers at DATABASE_URL and no Postgres binaries are installed.\n' +
        '  Install and start one:  sudo apt-get install -y postgresql && sudo pg_ctlcluster 15 main start\n' +
        '  or point DATABASE_URL at a running server (e.g. postgres://postgres@127.0.0.1:5432/crm_rules).',
    );
  }
  const pgDir = path.join(dataDir, 'pg');
  const asRoot = process.getuid && process.getuid() === 0;
  const runAs = (cmd, cmdArgs) =>
    asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...cmdArgs], { stdio: 'inherit' })
      : spawnSync(cmd, cmdArgs, { stdio: 'inherit' });
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    fs.mkdirSync(pgDir, { recursive: true });
    if (asRoot) spawnSync('chown', ['-R', 'postgres:postgres', pgDir]);
    log(`initialising a local Postgres in ${pgDir}`);
    const r = runAs(initdb, ['-D', pgDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
    if (r.status !== 0)
      fail(`initdb failed; run it yourself: ${initdb} -D ${pgDir} -U postgres --auth=trust`);
  }
  const logFile = path.join(pgDir, 'server.log');
  const r = runAs(pgCtl, [
    '-D',
    pgDir,
    '-l',
    logFile,
    '-o',
    `-p 55432 -k ${pgDir} -c listen_addresses=127.0.0.1`,
    '-w',
    'start',
  ]);
  if (r.status !== 0) fail(`could not start Postgres; see ${logFile}`);
  return 'postgres://postgres@127.0.0.1:55432/crm_rules';
}

/** Starts a private Redis on port 56379 (no persistence, like the machines' own). */
function startLocalRedis() {
  const redisServer = findBinary('redis-server', ['/usr/bin', '/usr/local/bin']);
  if (!redisServer) {
    fail(
      'no Redis answers at REDIS_URL and redis-server is not installed.\n' +
        '  Install and start one:  sudo apt-get install -y redis-server && redis-server --daemonize yes\n' +
        '  or point REDIS_URL at a running server (e.g. redis://127.0.0.1:6379).',
    );
  }
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync(
    redisServer,
    [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '--port',
      '56379',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--logfile',
      path.join(dir, 'redis.log'),
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) fail('could not start redis-server');
  return 'redis://127.0.0.1:56379';
}

async function ensureServices() {
  const runtime = readRuntimeEnv();
  const env = { ...runtime };
  const dbUrl = new URL(
    process.env.DATABASE_URL || runtime.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/crm_rules',
  );
  if (!(await canConnect(dbUrl.hostname, dbUrl.port || 5432))) {
    if (process.env.DATABASE_URL)
      fail(`DATABASE_URL is set but nothing answers at ${dbUrl.hostname}:${dbUrl.port || 5432}`);
    log(`no Postgres at ${dbUrl.hostname}:${dbUrl.port || 5432}; starting a local one`);
    env.DATABASE_URL = startLocalPostgres();
  }
  const redisUrl = new URL(process.env.REDIS_URL || runtime.REDIS_URL || 'redis://127.0.0.1:6379');
  if (!(await canConnect(redisUrl.hostname, redisUrl.port || 6379))) {
    if (process.env.REDIS_URL)
      fail(`REDIS_URL is set but nothing answers at ${redisUrl.hostname}:${redisUrl.port || 6379}`);
    log(`no Redis at ${redisUrl.hostname}:${redisUrl.port || 6379}; starting a local one`);
    env.REDIS_URL = startLocalRedis();
  }
  if (JSON.stringify(env) !== JSON.stringify(runtime)) writeRuntimeEnv(env);
  return { databaseUrl: process.env.DATABASE_URL || env.DATABASE_URL || dbUrl.toString() };
}

async function migrate(databaseUrl) {
  const { ensureDatabase, runMigrations } = require(
    path.join(root, 'dist', 'src', 'persistence', 'schema', 'migrate.js'),
  );
  await ensureDatabase(databaseUrl);
  const applied = await runMigrations(databaseUrl);
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
}

/** The console's browser tests drive the system Chromium (playwright-core cannot download one here). */
function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (fs.existsSync(chromium)) return;
  const command = 'apt-get update && apt-get install -y chromium';
  const canInstall = process.getuid && process.getuid() === 0 && findBinary('apt-get', []);
  if (!canInstall) {
    log(
      `no Chromium at ${chromium}: the console's browser tests need it. Install it:  sudo sh -c '${command}'`,
    );
    return;
  }
  log(`no Chromium at ${chromium}; installing Debian's package for the console's browser tests`);
  const result = spawnSync('sh', ['-c', command], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) log(`Chromium was not installed; run:  ${command}`);
}

(async () => {
  if (args.has('--browser')) ensureChromium();
  installDependencies();
  build();
  if (!args.has('--no-services')) {
    const { databaseUrl } = await ensureServices();
    if (!args.has('--no-migrate')) await migrate(databaseUrl);
  }
  log(`ready in ${Date.now() - t0} ms`);
})().catch((err) => fail(err && err.message ? err.message : String(err)));
