// One line per policy decision, so the table tests of judgeMessage compare text.
import type { judgeMessage } from './judge-message';

/** `none` (no say), `go`, `skip <reason>` or `defer <reason> <until ISO>`. */
export function verdictLine(d: ReturnType<typeof judgeMessage>): string {
  if (!d) return 'none';
  if (d.kind === 'go') return 'go';
  return d.kind === 'skip' ? `skip ${d.reason}` : `defer ${d.reason} ${d.until.toISOString()}`;
}
