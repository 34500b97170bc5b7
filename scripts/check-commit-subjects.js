#!/usr/bin/env node
// Fails when a commit subject is longer than 72 characters (run by .ci/run). Why: a subject is
// what `git log --oneline`, GitHub and every merge tool show; past 72 it is cut, and the figures
// and reasons belong in the body. Only commits after the cut-off are checked (default: c377cf1,
// the main HEAD when the rule was adopted), so history is not rewritten.
// Usage: node scripts/check-commit-subjects.js [--since <commit>] (in the repository to check).
'use strict';
const { execFileSync } = require('node:child_process');

const MAX_SUBJECT = 72;
const DEFAULT_CUT_OFF = 'c377cf1';

const sinceAt = process.argv.indexOf('--since');
const cutOff = sinceAt > 0 ? process.argv[sinceAt + 1] : DEFAULT_CUT_OFF;

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' });

try {
  git('rev-parse', '--verify', '--quiet', `${cutOff}^{commit}`);
} catch {
  // A shallow clone may not hold it; passing silently would stop checking anything.
  console.error(`check-commit-subjects: cut-off commit ${cutOff} not in this clone (fetch the full history)`);
  process.exit(1);
}

const commits = git('log', '--format=%h%x09%s', `${cutOff}..HEAD`)
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const tab = line.indexOf('\t');
    return { hash: line.slice(0, tab), subject: line.slice(tab + 1) };
  });
const tooLong = commits.filter((c) => [...c.subject].length > MAX_SUBJECT);

for (const c of tooLong) {
  console.error(
    `${c.hash}: subject is ${[...c.subject].length} characters (at most ${MAX_SUBJECT}): ${c.subject}`,
  );
}
if (tooLong.length > 0) {
  console.error(
    `check-commit-subjects: ${tooLong.length} of ${commits.length} commits since ${cutOff} too long`,
  );
  process.exit(1);
}
console.log(
  `check-commit-subjects: ${commits.length} commits since ${cutOff}, every subject at most ${MAX_SUBJECT}`,
);
