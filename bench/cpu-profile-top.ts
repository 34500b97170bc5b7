// node dist/bench/cpu-profile-top.js <file.cpuprofile> [n]: the functions with the most self time in
// a V8 CPU profile (node --cpu-prof), and the share of time by area (our code, node_modules, node
// internals, garbage collection, idle): a profile read without a browser.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, top = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
const hits = new Map<number, number>();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length;
const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
for (const node of profile.nodes) {
  const n = hits.get(node.id) ?? 0;
  if (!n) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(node_modules\/[^/]+|dist\/src)\//, '$1/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  const area = /^\((idle|garbage collector|program)\)$/.test(functionName)
    ? functionName
    : url.includes('node_modules/')
      ? `node_modules/${/node_modules\/([^/]+)/.exec(url)![1]}`
      : url.includes('/dist/')
        ? 'engine (dist/src)'
        : 'node internals';
  byArea.set(area, (byArea.get(area) ?? 0) + n);
}
const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
console.log(`${total} samples`);
for (const [area, n] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log(`${pct(n).padStart(6)}  ${area}`);
console.log('');
for (const [key, n] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
  console.log(`${pct(n).padStart(6)}  ${key}`);
