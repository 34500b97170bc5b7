#!/usr/bin/env node
// npm run bench:compare -- --base <git ref> [--benches e2e,throughput,rules] [--rounds N] [--quick]
//   [--out file.md] [--logs dir]
// Before and after in one run: the base ref is checked out in a temporary git worktree beside this
// checkout (the head, as it is on disk), both are built with their own package.json scripts, then
// each benchmark runs alternately base, head, base, head… (one child process each, same
// environment) so the machine's noise falls on both sides alike. Prints one table per benchmark
// (medians, every round, delta) and writes them as Markdown with --out (docs/BENCHMARKS.md, "Before
// and after in one run"). The temporary worktree is removed at the end, also on Ctrl-C.
// The pure parts (unit-tested): ./bench-output-parse.js reads outputs, ./bench-compare-lib.js the rest.
// @ts-check
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const lib = require('./bench-compare-lib');
const { parseBenchOutput } = require('./bench-output-parse');

const headTree = path.resolve(__dirname, '..');
const log = (msg) => process.stderr.write(`[bench:compare] ${msg}\n`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** What a Ctrl-C has to undo: the temporary worktree and the child running now. */
const state = {
  tempDir: '',
  baseTree: '',
  child: /** @type {import('node:child_process').ChildProcess | null} */ (null),
};

function git(args) {
  return execFileSync('git', args, {
    cwd: headTree,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/**
 * Runs a command in its own process group (so a Ctrl-C here can stop it and everything it started:
 * the benches start engines, a sandbox, load generators) and returns its combined output.
 */
function exec(file, args, cwd, env) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    state.child = child;
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      state.child = null;
      resolve({ code: code ?? (signal ? 128 : 1), output, ms: Date.now() - started });
    });
  });
}

/** As npm runs a script: the tree's node_modules/.bin first, and this very node. */
function treeEnv(tree, env) {
  const bins = [path.join(tree, 'node_modules', '.bin'), path.dirname(process.execPath)];
  return { ...env, PATH: [...bins, env.PATH ?? ''].join(path.delimiter) };
}

async function mustRun(what, file, args, cwd, env = process.env) {
  const r = await exec(file, args, cwd, treeEnv(cwd, env));
  if (r.code !== 0)
    throw new Error(`${what} failed (exit ${r.code}):\n${r.output.split('\n').slice(-30).join('\n')}`);
  return r;
}

/** The base ref in a detached worktree under the temp dir, with node_modules. */
async function checkOutBase(sha) {
  state.tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crmr-bench-compare-'));
  const tree = path.join(state.tempDir, 'base');
  git(['worktree', 'add', '--detach', tree, sha]);
  state.baseTree = tree;
  const lock = (t) => fs.readFileSync(path.join(t, 'package-lock.json'));
  if (lock(headTree).equals(lock(tree))) {
    // Same lock: hard links, no copy of the bytes (a few seconds). Nothing here writes into them.
    await mustRun('cp -al node_modules', 'cp', ['-al', path.join(headTree, 'node_modules'), tree], tree);
    log('node_modules: hard-link copy of the head (lock files equal)');
  } else {
    log('node_modules: lock files differ, npm ci in the base worktree...');
    await mustRun('npm ci', 'npm', ['ci', '--no-audit', '--no-fund'], tree);
  }
  return tree;
}

/** A tree's plan for `bench` (lib.benchPlan), read from its own package.json. */
function benchPlan(tree, bench) {
  const scripts = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')).scripts ?? {};
  const plan = lib.benchPlan(scripts, bench);
  if (!plan) throw new Error(`${tree} has no "bench:${bench}" script in its package.json`);
  return plan;
}

async function buildTree(label, tree, plans) {
  const steps = [...new Set(plans.flatMap((p) => p.build))];
  for (const step of steps) {
    const r = await mustRun(`${label}: ${step}`, 'sh', ['-c', step], tree);
    log(`${label}: ${step} (${seconds(r.ms)})`);
  }
}

/** The environment of every run of `bench`, base and head alike: ours, plus the preset's sizes we did not set. */
function benchEnv(bench, quick) {
  const preset = quick ? lib.QUICK_ENV[bench] : {};
  const env = { ...process.env };
  for (const [key, value] of Object.entries(preset)) if (env[key] === undefined) env[key] = value;
  return env;
}

function describeEnv(env) {
  const set = Object.entries(env).filter(([k]) => k.startsWith('BENCH_'));
  return set.length ? set.map(([k, v]) => `${k}=${v}`).join(' ') : 'bench defaults';
}

function cleanUp() {
  const started = Date.now();
  const had = state.tempDir;
  if (state.baseTree) {
    try {
      git(['worktree', 'remove', '--force', state.baseTree]);
    } catch (err) {
      log(`git worktree remove: ${err.message.split('\n')[0]} (removing the directory and pruning instead)`);
    }
    state.baseTree = '';
  }
  if (state.tempDir) {
    fs.rmSync(state.tempDir, { recursive: true, force: true });
    state.tempDir = '';
    try {
      git(['worktree', 'prune']);
    } catch {
      // nothing left to prune
    }
  }
  if (had) log(`removed the base worktree ${had} (${seconds(Date.now() - started)})`);
}

function onSignal(signal) {
  log(`${signal}: stopping the running benchmark and removing the base worktree`);
  if (state.child?.pid) {
    try {
      process.kill(-state.child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  cleanUp();
  process.exit(130);
}

async function main() {
  const opts = lib.parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  const load0 = os.loadavg()[0];
  const baseSha = git(['rev-parse', '--verify', `${opts.base}^{commit}`]);
  const headSha = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain']) !== '';
  const headLabel = `${headSha.slice(0, 7)}${dirty ? ' + uncommitted changes' : ''}`;
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  if (opts.logs) fs.mkdirSync(opts.logs, { recursive: true });
  try {
    log(`base ${opts.base} (${baseSha.slice(0, 7)}) vs head ${headLabel}`);
    const trees = { base: await checkOutBase(baseSha), head: headTree };
    const plans = { base: {}, head: {} };
    for (const side of ['base', 'head']) {
      for (const bench of opts.benches) plans[side][bench] = benchPlan(trees[side], bench);
      await buildTree(side, trees[side], Object.values(plans[side]));
    }
    const tRuns = Date.now();
    /** @type {Record<string, Record<string, {metrics: Record<string, number>, source: string}[]>>} */
    const results = {};
    const failures = [];
    for (let round = 1; round <= opts.rounds; round++) {
      for (const bench of opts.benches) {
        results[bench] ??= { base: [], head: [] };
        for (const side of ['base', 'head']) {
          const tree = trees[side];
          const r = await exec(
            'sh',
            ['-c', plans[side][bench].run],
            tree,
            treeEnv(tree, benchEnv(bench, opts.quick)),
          );
          if (opts.logs) fs.writeFileSync(path.join(opts.logs, `${bench}-${side}-${round}.txt`), r.output);
          const parsed = parseBenchOutput(bench, r.output);
          const count = Object.keys(parsed.metrics).length;
          log(
            `round ${round}/${opts.rounds} ${bench} ${side}: ${seconds(r.ms)}, exit ${r.code}, ${count} figures (${parsed.source})`,
          );
          if (count === 0) {
            failures.push(`${bench} ${side} round ${round} (exit ${r.code})`);
            log(r.output.split('\n').slice(-20).join('\n'));
          }
          results[bench][side].push(parsed);
        }
      }
    }
    const tookMs = Date.now() - t0;
    const sources = (runs) => [...new Set(runs.map((r) => r.source))].join(' + ');
    const sections = opts.benches.map((bench) => {
      const { base, head } = results[bench];
      const rows = lib.compareRounds(
        base.map((r) => r.metrics),
        head.map((r) => r.metrics),
      );
      const env = describeEnv(benchEnv(bench, opts.quick));
      return `#### bench:${bench}\n\n${env}; figures from base: ${sources(base)}, head: ${sources(head)}\n\n${lib.formatTable(rows)}\n`;
    });
    const summary = [
      `### Base ${opts.base} (${baseSha.slice(0, 7)}) against head ${headLabel}`,
      '',
      `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}, ${opts.rounds} round${opts.rounds > 1 ? 's' : ''} ` +
        `alternating base/head${opts.quick ? ', --quick' : ''}; load average ${load0.toFixed(1)} → ` +
        `${os.loadavg()[0].toFixed(1)}; ${seconds(tookMs)} in all (check-out and builds ${seconds(tRuns - t0)}). ` +
        'Medians over the rounds; delta = head median against base median.',
      ...(failures.length ? ['', `Runs without figures: ${failures.join(', ')}.`] : []),
      '',
      ...sections,
    ].join('\n');
    process.stdout.write(`\n${summary}`);
    if (opts.out) {
      fs.writeFileSync(opts.out, summary);
      log(`written to ${opts.out}`);
    }
    if (failures.length) process.exitCode = 1;
  } finally {
    cleanUp();
  }
}

main().catch((err) => {
  log(err.message);
  cleanUp();
  process.exitCode = 1;
});
