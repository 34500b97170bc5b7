// Printing of the budget benchmark: per-window table, sliding-window maximum, 429s, waits.
import type { CallRecord } from './budget-worker';
import { maxInSlidingWindow, slotHeadroom, windowRows, type Arrival } from './budget-stats';
import { percentile } from './stats';

const out = (line = '') => process.stdout.write(`${line}\n`);
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');

function printWindows(arrivals: Arrival[], limit: number, windowMs: number, fullUntil: number): number[] {
  const { rows, full } = windowRows(arrivals, windowMs, fullUntil);
  out('  window  calls  of limit  bulk  interactive  bulk share  429s');
  for (const r of rows) {
    const label = r.index < full ? 'full' : 'tail';
    const share = r.calls ? pct(r.bulk, r.calls) : '-';
    out(
      `  ${String(r.index + 1).padStart(2)} ${label}  ${String(r.calls).padStart(5)}  ${pct(r.calls, limit).padStart(8)}` +
        `  ${String(r.bulk).padStart(4)}  ${String(r.interactive).padStart(11)}  ${share.padStart(10)}  ${String(r.refused429).padStart(4)}`,
    );
  }
  return rows.slice(0, full).map((r) => r.calls);
}

/** When the backlog stopped saturating: the last call of the class (or of both) that kept it full. */
function saturatedUntil(arrivals: Arrival[], saturating: 'bulk' | 'both'): number {
  const last = (kind: Arrival['kind']) =>
    Math.max(...arrivals.filter((a) => a.kind === kind).map((a) => a.at));
  return saturating === 'bulk' ? last('bulk') : Math.min(last('bulk'), last('interactive'));
}

export function printGatewayReport(run: {
  title: string;
  arrivals: Arrival[];
  records: CallRecord[];
  limit: number;
  windowMs: number;
  saturating: 'bulk' | 'both';
}): void {
  const { arrivals, records, limit, windowMs } = run;
  const admitted = arrivals.filter((a) => a.status !== 429);
  const fullUntil = saturatedUntil(arrivals, run.saturating);
  out();
  out(run.title);
  const fullCalls = printWindows(arrivals, limit, windowMs, fullUntil);
  const minFull = Math.min(...fullCalls);
  out(
    `  full windows: ${fullCalls.length}; lowest ${minFull} = ${pct(minFull, limit)} of the limit (target >= 98%: ${mark(minFull >= 0.98 * limit)})`,
  );
  const sliding = maxInSlidingWindow(
    admitted.map((a) => a.at),
    windowMs,
  );
  out(
    `  max calls in any sliding ${windowMs} ms window: ${sliding} (limit ${limit}: ${mark(sliding <= limit)})`,
  );
  const head = slotHeadroom(
    admitted.map((a) => a.at),
    limit,
    windowMs,
  );
  if (head) {
    out(
      `  closest approach to the limit, min(t[i] - t[i-${limit}]) - window: ${head.min.toFixed(1)} ms (> 0: never above)`,
    );
  }
  const refused = arrivals.filter((a) => a.status === 429).length;
  out(`  429s received: ${refused} (target 0: ${mark(refused === 0)})`);
  const failed = records.filter((r) => !r.ok).length;
  out(`  calls: ${records.length} queued, ${records.length - failed} succeeded, ${failed} failed`);

  if (run.saturating === 'both') {
    const { rows, full } = windowRows(arrivals, windowMs, fullUntil);
    const shares = rows.slice(0, full).map((r) => pct(r.bulk, r.calls));
    out(`  bulk share of each full window while interactive work saturates: ${shares.join(', ')}`);
    return;
  }
  const scale = 60_000 / windowMs;
  const during = records.filter(
    (r) => r.kind === 'interactive' && r.bulkPendingAtQueue > 0 && r.queuedAt < fullUntil,
  );
  const waits = during.map((r) => r.grantedAt - r.queuedAt);
  const answered = during.map((r) => r.doneAt - r.queuedAt);
  const p95 = percentile(waits, 95);
  out(`  interactive calls while bulk saturates, n=${during.length}:`);
  out(
    `    budget wait (queued -> slot): p50 ${percentile(waits, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${Math.max(...waits).toFixed(0)} ms`,
  );
  out(
    `      scaled x${scale} to a 60 s window: p95 ${((p95 * scale) / 1000).toFixed(2)} s (target <= 2 s: ${mark(p95 * scale <= 2_000)})`,
  );
  out(
    `    queued -> answered (adds the sandbox's own queueing): p50 ${percentile(answered, 50).toFixed(0)} ms, p95 ${percentile(answered, 95).toFixed(0)} ms`,
  );
  const start = records.filter((r) => r.kind === 'interactive-start');
  const startWaits = start.map((r) => r.grantedAt - r.queuedAt);
  const startDone = start.map((r) => r.doneAt - r.queuedAt);
  out(
    `  interactive calls queued with the backlog at t0, n=${start.length}: budget wait p95 ${percentile(startWaits, 95).toFixed(0)} ms, ` +
      `answered p50 ${percentile(startDone, 50).toFixed(0)} ms, p95 ${percentile(startDone, 95).toFixed(0)} ms`,
  );
  const bulkDone = records.filter((r) => r.kind === 'bulk').map((r) => r.doneAt - r.queuedAt);
  out(
    `  bulk latency: p50 ${(percentile(bulkDone, 50) / 1000).toFixed(1)} s, max ${(Math.max(...bulkDone) / 1000).toFixed(1)} s`,
  );
}

export function printFixedWindowReport(run: { arrivals: Arrival[]; limit: number; windowMs: number }): void {
  const { arrivals, limit, windowMs } = run;
  out();
  out(
    `[3] BullMQ fixed-window limiter { max: ${limit}, duration: ${windowMs} } (2 processes, backlog of [1], no retries)`,
  );
  const admittedOnly = arrivals.filter((a) => a.status !== 429);
  printWindows(
    arrivals,
    limit,
    windowMs,
    admittedOnly.length ? Math.max(...admittedOnly.map((a) => a.at)) : 0,
  );
  const attempted = maxInSlidingWindow(
    arrivals.map((a) => a.at),
    windowMs,
  );
  out(
    `  max calls sent in any sliding ${windowMs} ms window: ${attempted} (limit ${limit}: ${mark(attempted <= limit)})`,
  );
  const refused = arrivals.filter((a) => a.status === 429).length;
  out(
    `  429s received: ${refused} of ${arrivals.length} calls (${pct(refused, Math.max(1, arrivals.length))})`,
  );
  out('  (arrivals are timed when the request reaches the socket; the sandbox stamps them a little later,');
  out('   so a fixed window above can show one call more than the limit without a 429)');
}
