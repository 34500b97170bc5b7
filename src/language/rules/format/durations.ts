// Durations as ops write them (`90s`, `30m`, `24h`, `7d`, `2w`): cooldowns and the
// olderThan / newerThan operators. Same units as relative segment dates (`now-30d`).

const DURATION_RE = /^(\d{1,9})(s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 604800e3 };

export const DURATION_HINT = 'a duration like 90s, 30m, 24h, 7d or 2w';

/** Milliseconds, or undefined when the text is not a duration (zero is refused: it means nothing). */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = DURATION_RE.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2]];
  return ms > 0 ? ms : undefined;
}
