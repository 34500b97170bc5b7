#!/usr/bin/env node
// One-off of issue 22 (the sandbox and the CRM contract's types became workspace packages): rewrites
// every relative import that pointed at src/sandbox/** or at src/crm-contract/{crm-types,
// segment-filter-constraints} to the package's name (@crm-rules/crm-sandbox, @crm-rules/crm-contract).
// Branches written before the move still import the old paths, so it is re-run after merging them;
// it is idempotent (a package name is not a relative path) and may be deleted once nobody needs it.
// Usage: node scripts/rewrite-package-imports.js [roots..., default src test bench scripts packages]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const roots = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['src', 'test', 'bench', 'scripts', 'packages'];

/** Where the moved folders were (old) and are (new), relative to the repository. */
const MOVES = [
  { old: 'src/sandbox/', now: 'packages/crm-sandbox/src/' },
  { old: 'src/crm-contract/crm-types', now: 'packages/crm-contract/src/crm-types' },
  {
    old: 'src/crm-contract/segment-filter-constraints',
    now: 'packages/crm-contract/src/segment-filter-constraints',
  },
];
/** Which package an old path belongs to. */
function packageOf(oldPath) {
  if (oldPath.startsWith('src/sandbox/')) return '@crm-rules/crm-sandbox';
  if (/^src\/crm-contract\/(crm-types|segment-filter-constraints)([.]|$)/.test(oldPath))
    return '@crm-rules/crm-contract';
  return undefined;
}
/** A file's path as it was before the move (files inside the packages map back to src/). */
function oldPathOf(file) {
  for (const { old, now } of MOVES) if (file.startsWith(now)) return old + file.slice(now.length);
  return file;
}

const IMPORT =
  /(\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bjest\.mock\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g;

function rewrite(file) {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const fromOld = oldPathOf(file);
  const fromPackage = packageOf(fromOld);
  let changed = 0;
  const next = text.replace(IMPORT, (whole, lead, quote, spec) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(fromOld), spec));
    const toPackage = packageOf(target);
    if (!toPackage || toPackage === fromPackage) return whole;
    changed++;
    return `${lead}${quote}${toPackage}${quote}`;
  });
  if (changed) {
    fs.writeFileSync(path.join(root, file), next);
    console.log(`${file}: ${changed}`);
  }
}

function walk(dir) {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git'].includes(entry.name)) continue;
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) walk(rel);
    else if (/\.(ts|js|cjs|mjs)$/.test(entry.name) && !rel.startsWith('test/tools/boundaries-fixture/'))
      rewrite(rel);
  }
}

for (const r of roots) walk(r);
