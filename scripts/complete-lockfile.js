#!/usr/bin/env node
// Adds lock entries for other platforms' optional native binaries (swc, msgpackr-extract, ...).
//
// Why: `npm ci` refuses a lock file that lacks an entry for any optional dependency of a locked
// package, even one for another OS. npm writes those entries only when the registry serves the
// packages; a registry mirror that serves only this platform's binaries leaves them out, and the
// lock then breaks `npm ci` everywhere. Each added entry carries the os/cpu (and libc) read off
// the package's name, so npm skips it on every platform it does not fit, exactly as with an entry
// written by the registry. Run after `npm install` changed the lock: `node scripts/complete-lockfile.js`.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openbsd', 'netbsd', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32', 'mips64el'];

/** os / cpu / libc of a platform package, read off its name (e.g. @swc/core-linux-arm64-musl). */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!cpu) return undefined;
  const entry = { cpu: [cpu] };
  if (os) entry.os = [os];
  if (parts.includes('musl')) entry.libc = ['musl'];
  else if (os === 'linux' && parts.some((p) => p.startsWith('gnu'))) entry.libc = ['glibc'];
  return entry;
}

let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  if (!location || !meta.optionalDependencies) continue;
  for (const [dep, range] of Object.entries(meta.optionalDependencies)) {
    const target = `node_modules/${dep}`;
    if (packages[target]) continue;
    const platform = platformOf(dep);
    const version = range.replace(/^[=^~]/, '');
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    packages[target] = { version, ...(meta.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
