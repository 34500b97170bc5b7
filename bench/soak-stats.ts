// The verdict of bench:soak from its samples: pure, so its arithmetic has a table-driven spec.

export interface SoakSample {
  minute: number;
  answered: number;
  ok: number;
  backlog: number;
  apiRss: number;
  workerRss: number;
  dbMb: number;
  growthMb: number;
}

/** RSS counts as flat when the last third's mean is within this share (or 10 MB) of the first's. */
const FLAT_SHARE = 0.1;
const FLAT_MB = 10;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);

export function thirds(xs: number[]): { first: number; last: number } {
  const n = Math.max(1, Math.floor(xs.length / 3));
  return { first: mean(xs.slice(0, n)), last: mean(xs.slice(-n)) };
}

export function isFlat(first: number, last: number): boolean {
  return last - first <= Math.max(FLAT_MB, first * FLAT_SHARE);
}

export function soakVerdict(
  samples: SoakSample[],
  grownBytes: number,
  events: number,
  finalBacklog: number,
): { lines: string[]; result: Record<string, number> } {
  const answered = samples.reduce((a, s) => a + s.answered, 0);
  const ok = samples.reduce((a, s) => a + s.ok, 0);
  const api = thirds(samples.map((s) => s.apiRss));
  const worker = thirds(samples.map((s) => s.workerRss));
  const perEvent = grownBytes / Math.max(events, 1);
  const flat = isFlat(api.first, api.last) && isFlat(worker.first, worker.last);
  const maxBacklog = Math.max(0, ...samples.map((s) => s.backlog));
  const lines = [
    `deliveries answered: ${answered}, 2xx: ${ok} (${((100 * ok) / Math.max(answered, 1)).toFixed(2)} %), inbox rows: ${events}`,
    `backlog: largest sample ${maxBacklog}, after the load ${finalBacklog}`,
    `database growth: ${(grownBytes / 1024 / 1024).toFixed(1)} MB, ${Math.round(perEvent)} bytes per event`,
    `RSS MB first third → last third: api ${api.first.toFixed(0)} → ${api.last.toFixed(0)}, ` +
      `worker ${worker.first.toFixed(0)} → ${worker.last.toFixed(0)}: ${flat ? 'flat' : 'GROWING'}`,
  ];
  return {
    lines,
    result: {
      deliveries: answered,
      ok_share: ok / Math.max(answered, 1),
      final_backlog: finalBacklog,
      max_backlog: maxBacklog,
      bytes_per_event: Math.round(perEvent),
      api_rss_first_mb: Math.round(api.first),
      api_rss_last_mb: Math.round(api.last),
      worker_rss_first_mb: Math.round(worker.first),
      worker_rss_last_mb: Math.round(worker.last),
      rss_flat: flat ? 1 : 0,
    },
  };
}
