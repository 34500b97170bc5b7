// The readout of an experiment (a split with a control arm, or any split against its first arm):
// goal conversions per arm, each with a 95% Wilson score interval, and each arm against the
// control: the difference of conversion rates with Newcombe's hybrid score interval (Newcombe
// 1998, method 10, built from the two Wilson intervals), the relative lift, and a two-proportion
// z-test (pooled). Small samples say so instead of a number: an arm with fewer than MIN_RUNS
// runs, or fewer than MIN_EVENTS conversions or non-conversions, is "too few to say" (the normal
// approximations behind the test do not hold there). Pure.

/** Runs and conversions of one arm. */
export interface ArmCounts {
  label: string;
  runs: number;
  converted: number;
}

export interface Interval {
  low: number;
  high: number;
}

export interface ArmReadout extends ArmCounts {
  rate: number;
  /** 95% Wilson score interval of the rate. */
  interval: Interval;
  control: boolean;
  /** Against the control arm (absent on the control). */
  versusControl?: {
    /** rate - control rate, with Newcombe's 95% interval. */
    difference: number;
    interval: Interval;
    /** rate / control rate - 1 (undefined when the control converted none). */
    relativeLift?: number;
    z: number;
    pValue: number;
  };
}

export interface ExperimentReadout {
  method: string;
  control?: string;
  arms: ArmReadout[];
  /** Set when some arm is too small for the intervals and the test to mean anything. */
  tooFew?: string;
}

export const MIN_RUNS = 30;
export const MIN_EVENTS = 5;
const Z95 = 1.959963984540054;
export const METHOD =
  'two-proportion z-test (pooled); 95% Wilson score interval per arm; Newcombe hybrid score interval for the difference';

/** The 95% Wilson score interval of `x` successes out of `n`. */
export function wilson(x: number, n: number, z = Z95): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = x / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Newcombe's interval for p1 - p0 from the two Wilson intervals. */
export function newcombe(x1: number, n1: number, x0: number, n0: number): Interval {
  const [p1, p0] = [x1 / n1, x0 / n0];
  const [w1, w0] = [wilson(x1, n1), wilson(x0, n0)];
  const d = p1 - p0;
  return {
    low: d - Math.sqrt((p1 - w1.low) ** 2 + (w0.high - p0) ** 2),
    high: d + Math.sqrt((w1.high - p1) ** 2 + (p0 - w0.low) ** 2),
  };
}

/** The pooled two-proportion z statistic and its two-sided p-value. */
export function twoProportionZ(
  x1: number,
  n1: number,
  x0: number,
  n0: number,
): { z: number; pValue: number } {
  const pooled = (x1 + x0) / (n1 + n0);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n0));
  if (se === 0) return { z: 0, pValue: 1 };
  const z = (x1 / n1 - x0 / n0) / se;
  return { z, pValue: 2 * (1 - normalCdf(Math.abs(z))) };
}

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 erf, error below 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * Math.abs(x)) / Math.SQRT2);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

function tooFewIn(a: ArmCounts): string | undefined {
  if (a.runs < MIN_RUNS) return `${a.label}: ${a.runs} run(s), fewer than ${MIN_RUNS}`;
  const least = Math.min(a.converted, a.runs - a.converted);
  if (least < MIN_EVENTS)
    return `${a.label}: ${least} ${least === a.converted ? 'conversion(s)' : 'non-conversion(s)'}, fewer than ${MIN_EVENTS}`;
  return undefined;
}

/** The readout; `control` names the control arm (default: the first arm). */
export function experimentReadout(arms: readonly ArmCounts[], control?: string): ExperimentReadout {
  const base = arms.find((a) => a.label === control) ?? arms[0];
  const reasons = arms.map(tooFewIn).filter((r): r is string => r !== undefined);
  const out: ArmReadout[] = arms.map((a) => {
    const rate = a.runs > 0 ? a.converted / a.runs : 0;
    const row: ArmReadout = { ...a, rate, interval: wilson(a.converted, a.runs), control: a === base };
    if (a === base || !base || reasons.length > 0) return row;
    const baseRate = base.converted / base.runs;
    return {
      ...row,
      versusControl: {
        difference: rate - baseRate,
        interval: newcombe(a.converted, a.runs, base.converted, base.runs),
        ...(baseRate > 0 ? { relativeLift: rate / baseRate - 1 } : {}),
        ...twoProportionZ(a.converted, a.runs, base.converted, base.runs),
      },
    };
  });
  return {
    method: METHOD,
    ...(base ? { control: base.label } : {}),
    arms: out,
    ...(arms.length < 2
      ? { tooFew: 'fewer than two arms taken' }
      : reasons.length > 0
        ? { tooFew: `too few to say: ${reasons.join('; ')}` }
        : {}),
  };
}
