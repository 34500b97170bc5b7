#!/usr/bin/env node
// Prints the import cycles between the folders of src/ and the workspace packages (issue 22: the
// layout should have none): each pair of folders that import each other with the import counts both
// ways, then each strongly connected group. A folder is src/<name>, or src/<group>/<name> for the
// grouping folders (the pipeline's stages, the core's parts, persistence), or a whole package
// (packages/<name>); spec files are left out. With --check (run by
// `npm run lint`) it exits 1 on a cycle group holding a folder outside the core: the core's own
// parts (language/*) still import each other; persistence/ledger left the group when the action
// row's words (ActionStatus, ActionTarget) moved into the core.
// Usage: node scripts/folder-cycles.js [--check] [tree, default this repository]
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const check = args.includes('--check');
/** The tree to measure (a fixture's in tests); the configuration is always this repository's. */
const root = path.resolve(args.find((a) => a !== '--check') ?? path.join(__dirname, '..'));
const config = path.join(__dirname, '..', '.dependency-cruiser.cjs');
const depcruise = path.join(
  __dirname,
  '..',
  'node_modules',
  'dependency-cruiser',
  'bin',
  'dependency-cruise.mjs',
);
/** src/ and the workspace packages' sources (packages/<name>/src), those the tree has. */
const packagesDir = path.join(root, 'packages');
const trees = [
  'src',
  ...(fs.existsSync(packagesDir) ? fs.readdirSync(packagesDir).map((p) => `packages/${p}/src`) : []),
].filter((t) => fs.existsSync(path.join(root, t)));
const out = execFileSync(
  process.execPath,
  [
    depcruise,
    ...trees,
    '--config',
    config,
    '--output-type',
    'json',
    '--exclude',
    '[.]spec[.]ts$|spec-support',
  ],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);

/** Folders grouping others (a stage of the pipeline, a part of the core, of persistence) count by sub-folder. */
const GROUPS = ['pipeline', 'language', 'outbound', 'persistence', 'operator', 'tooling', 'runtime'];
function folderOf(file) {
  if (file.startsWith('packages/')) return file.split('/').slice(0, 2).join('/');
  if (!file.startsWith('src/')) return undefined;
  const parts = file.split('/');
  if (parts.length === 2) return '(src root)';
  if (GROUPS.includes(parts[1]) && parts.length > 3) return `${parts[1]}/${parts[2]}`;
  return parts[1];
}

/** counts.get(a).get(b): the imports from files of folder a to files of folder b. */
const counts = new Map();
for (const module of JSON.parse(out).modules) {
  const from = folderOf(module.source);
  for (const dep of module.dependencies) {
    const to = folderOf(dep.resolved);
    if (!from || !to || from === to) continue;
    if (!counts.has(from)) counts.set(from, new Map());
    counts.get(from).set(to, (counts.get(from).get(to) ?? 0) + 1);
  }
}
const count = (a, b) => counts.get(a)?.get(b) ?? 0;

const pairs = [];
for (const [a, targets] of counts) {
  for (const b of targets.keys()) if (a < b && count(b, a) > 0) pairs.push([a, b, count(a, b), count(b, a)]);
}
pairs.sort((x, y) => Math.min(y[2], y[3]) - Math.min(x[2], x[3]) || y[2] + y[3] - (x[2] + x[3]));
console.log(`${pairs.length} pairs of folders importing each other (imports a → b / b → a):`);
for (const [a, b, ab, ba] of pairs) console.log(`  ${a} ↔ ${b}: ${ab} / ${ba}`);

// Tarjan's strongly connected components: every folder of a group reaches every other one.
const folders = [
  ...new Set([...counts.keys(), ...[...counts.values()].flatMap((m) => [...m.keys()])]),
].sort();
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const groups = [];
let next = 0;
function visit(v) {
  index.set(v, next);
  low.set(v, next++);
  stack.push(v);
  onStack.add(v);
  for (const w of counts.get(v)?.keys() ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  }
}
for (const f of folders) if (!index.has(f)) visit(f);
console.log(`${groups.length} group(s) of folders in a cycle:`);
for (const g of groups) console.log(`  ${g.length} folders: ${g.join(', ')}`);

/** The one cycle left after the re-layout: inside the rule language (issue 22, report). */
const allowedInCycle = (folder) => folder.startsWith('language/');
const outside = groups.filter((g) => !g.every(allowedInCycle));
if (check && outside.length > 0) {
  for (const g of outside) console.error(`folder cycle outside the core: ${g.join(', ')}`);
  process.exit(1);
}
