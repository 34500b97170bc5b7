// The JSONPath subset of `save:` in http-request (`orderStatus: $.order.status`): `$`, then
// `.name`, `['name']` / `["name"]` and `[index]` steps, nothing else (no filters, wildcards or
// recursion), so a path reads one value and cannot run code. Pure.

export type PathStep = string | number;

/** The steps of a path, or an error message. */
export function parseResponsePath(text: string): PathStep[] | { error: string } {
  if (!text.startsWith('$')) return { error: `"${text}" must start with $ (e.g. $.status)` };
  const steps: PathStep[] = [];
  let rest = text.slice(1);
  while (rest.length > 0) {
    const m =
      /^\.([A-Za-z_$][A-Za-z0-9_$-]*)/.exec(rest) ??
      /^\[(\d{1,9})\]/.exec(rest) ??
      /^\['([^'\\]*)'\]/.exec(rest) ??
      /^\["([^"\\]*)"\]/.exec(rest);
    if (!m)
      return {
        error: `"${text}": only .name, ['name'] and [index] steps are supported (at "${rest.slice(0, 20)}")`,
      };
    steps.push(m[0].startsWith('[') && /^\d/.test(m[1]) ? Number(m[1]) : m[1]);
    rest = rest.slice(m[0].length);
  }
  return steps;
}

/** The value at the path, or undefined when a step is missing. */
export function readPath(json: unknown, steps: readonly PathStep[]): unknown {
  let at: unknown = json;
  for (const step of steps) {
    if (typeof step === 'number') at = Array.isArray(at) ? at[step] : undefined;
    else
      at =
        at !== null && typeof at === 'object' && !Array.isArray(at) && Object.hasOwn(at, step)
          ? (at as Record<string, unknown>)[step]
          : undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/** Every `save:` entry read from the answer; a missing value is saved as null (it renders empty). */
export function mapResponse(save: Record<string, string>, json: unknown): Record<string, unknown> {
  const saved: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(save)) {
    const steps = parseResponsePath(path);
    saved[name] = 'error' in steps ? null : (readPath(json, steps) ?? null);
  }
  return saved;
}
