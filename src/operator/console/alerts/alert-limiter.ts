// Rate limit of alert messages, per kind of alert. Pure: state in, decision and state out.
// An incident sends a handful of messages, not thousands: at most `perWindow` messages per kind
// per window; what was held back is counted and told in the next message that goes out.

export interface LimiterPolicy {
  perWindow: number;
  windowMs: number;
}

export const DEFAULT_POLICY: LimiterPolicy = { perWindow: 3, windowMs: 10 * 60_000 };

export interface KindState {
  windowStart: number;
  sent: number;
  /** Occurrences held back since the last message sent. */
  heldBack: number;
}

export type LimiterState = Readonly<Record<string, KindState>>;

export interface Decision {
  send: boolean;
  /** Occurrences held back before this one (to mention in the message when it is sent). */
  heldBack: number;
  state: LimiterState;
}

export function decide(
  state: LimiterState,
  kind: string,
  occurrences: number,
  now: number,
  policy: LimiterPolicy = DEFAULT_POLICY,
): Decision {
  const previous = state[kind];
  const fresh = !previous || now - previous.windowStart >= policy.windowMs;
  const current: KindState = fresh
    ? { windowStart: now, sent: 0, heldBack: previous?.heldBack ?? 0 }
    : previous;
  if (current.sent < policy.perWindow) {
    const next = { ...current, sent: current.sent + 1, heldBack: 0 };
    return { send: true, heldBack: current.heldBack, state: { ...state, [kind]: next } };
  }
  const next = { ...current, heldBack: current.heldBack + occurrences };
  return { send: false, heldBack: next.heldBack, state: { ...state, [kind]: next } };
}
