// Reading fixtures: a path to a .yaml/.yml/.json file or an object. Helpers shared by the
// builders: stable ids, dates relative to load time, and problem collection (a broken
// fixture is reported with every problem at once, each with its path).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isUuid, resolveFilterDate } from '@crm-rules/crm-contract';
import type { SandboxFixture } from './fixture-types';

/** Fixtures are copied to dist by the build, so they are found beside the compiled code too. */
export const DEMO_FIXTURE_PATH = join(__dirname, '..', 'fixtures', 'demo.yaml');

export class FixtureError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid sandbox fixture:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'FixtureError';
  }
}

export function readFixture(source: SandboxFixture | string | undefined): SandboxFixture {
  if (source !== undefined && typeof source !== 'string') return source;
  const path = source ?? DEMO_FIXTURE_PATH;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new FixtureError([`cannot read ${path}: ${(err as Error).message}`]);
  }
  try {
    return (path.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as SandboxFixture;
  } catch (err) {
    throw new FixtureError([`cannot parse ${path}: ${(err as Error).message}`]);
  }
}

/** A uuid derived from its parts, so ids stay the same across resets and restarts. */
export function stableUuid(...parts: string[]): string {
  const h = createHash('sha1').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Collects problems with their fixture path while building. */
export class Problems {
  readonly list: string[] = [];

  add(path: string, message: string): void {
    this.list.push(`${path}: ${message}`);
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new FixtureError(this.list);
  }

  id(path: string, given: unknown, ...derivedFrom: string[]): string {
    if (given === undefined || given === null) return stableUuid(...derivedFrom);
    if (!isUuid(given)) this.add(`${path}.id`, `must be a uuid (got ${JSON.stringify(given)})`);
    return String(given).toLowerCase();
  }

  /** ISO 8601 or relative (`now-3d`), normalised to toISOString(). */
  date(path: string, value: unknown, now: Date, fallback: Date): string {
    if (value === undefined) return fallback.toISOString();
    const d =
      typeof value === 'string' ? resolveFilterDate(value, now) : value instanceof Date ? value : undefined;
    if (!d || Number.isNaN(d.getTime())) {
      this.add(path, `must be an ISO 8601 date-time or now[+-]<n><s|m|h|d|w> (got ${JSON.stringify(value)})`);
      return fallback.toISOString();
    }
    return d.toISOString();
  }

  required(path: string, value: unknown, type: 'string' | 'boolean' | 'array' | 'object'): boolean {
    const ok =
      type === 'array'
        ? Array.isArray(value)
        : typeof value === type && value !== null && (type !== 'string' || value !== '');
    if (!ok)
      this.add(path, `is required and must be a${type === 'array' || type === 'object' ? 'n' : ''} ${type}`);
    return ok;
  }
}

/** Resolves a reference by id or by any of the given keys (name, email, phone...). */
export function resolveRef<T extends { id: string }>(
  items: Iterable<T>,
  ref: string,
  keys: (keyof T)[],
): T | undefined {
  const lower = ref.toLowerCase();
  for (const item of items) {
    if (item.id === lower) return item;
    if (keys.some((k) => typeof item[k] === 'string' && (item[k] as string).toLowerCase() === lower))
      return item;
  }
  return undefined;
}
