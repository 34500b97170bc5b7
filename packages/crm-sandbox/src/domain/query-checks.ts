// Query strings arrive as strings (or arrays of strings when a name repeats). Each
// endpoint declares its parameters; values are converted and checked, every failure is
// listed, and an undeclared parameter is refused (unrecognized_keys).
import type { CrmErrorDetail } from '@crm-rules/crm-contract';
import { detail, isUuid } from '@crm-rules/crm-contract';
import type { PageRequest } from './paging';
import { assertValid } from './sandbox-error';

export type QueryParam =
  | { kind: 'int'; min?: number; max?: number }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'bool' }
  | { kind: 'uuid' }
  | { kind: 'uuid[]' }
  | { kind: 'string'; max?: number };

export type QuerySpec = Record<string, QueryParam>;

type ValueOf<P> = P extends { kind: 'int' }
  ? number
  : P extends { kind: 'enum'; values: readonly (infer V)[] }
    ? V
    : P extends { kind: 'bool' }
      ? boolean
      : P extends { kind: 'uuid[]' }
        ? string[]
        : string;

export type ParsedQuery<S extends QuerySpec> = { [K in keyof S]?: ValueOf<S[K]> };

export const DEFAULT_PAGE_SIZE = 20;

export function pagingSpec(maxLimit: number) {
  return { page: { kind: 'int', min: 1 }, limit: { kind: 'int', min: 1, max: maxLimit } } as const;
}

export function pageRequest(q: { page?: number; limit?: number }): PageRequest {
  return { page: q.page ?? 1, limit: q.limit ?? DEFAULT_PAGE_SIZE };
}

function convert(name: string, raw: string, spec: QueryParam): { value?: unknown; error?: CrmErrorDetail } {
  switch (spec.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(raw))
        return { error: detail(name, 'invalid_type', `Expected integer, received '${raw}'`) };
      const n = Number(raw);
      if (spec.min !== undefined && n < spec.min)
        return { error: detail(name, 'too_small', `Number must be greater than or equal to ${spec.min}`) };
      if (spec.max !== undefined && n > spec.max)
        return { error: detail(name, 'too_big', `Number must be less than or equal to ${spec.max}`) };
      return { value: n };
    }
    case 'bool':
      if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
      return { error: detail(name, 'invalid_type', `Expected 'true' or 'false', received '${raw}'`) };
    case 'enum':
      if (spec.values.includes(raw)) return { value: raw };
      return {
        error: detail(
          name,
          'invalid_enum_value',
          `Invalid enum value. Expected ${spec.values.map((v) => `'${v}'`).join(' | ')}, received '${raw}'`,
        ),
      };
    case 'uuid':
    case 'uuid[]':
      return isUuid(raw) ? { value: raw } : { error: detail(name, 'invalid_string', 'Invalid uuid') };
    case 'string':
      if (spec.max !== undefined && [...raw].length > spec.max)
        return { error: detail(name, 'too_big', `String must contain at most ${spec.max} character(s)`) };
      return { value: raw };
  }
}

/** Parses and checks a query object; throws validation_failed listing every bad parameter. */
export function parseQuery<S extends QuerySpec>(
  query: Record<string, unknown>,
  spec: S,
  required: readonly (keyof S & string)[] = [],
): ParsedQuery<S> {
  const out: Record<string, unknown> = {};
  const details: CrmErrorDetail[] = [];
  for (const name of required) {
    if ((query ?? {})[name] === undefined) details.push(detail(name, 'invalid_type', 'Required'));
  }
  for (const [name, rawValue] of Object.entries(query ?? {})) {
    const param = spec[name];
    if (!param) {
      details.push(detail(name, 'unrecognized_keys', `Unrecognized query parameter: '${name}'`));
      continue;
    }
    const raws = Array.isArray(rawValue) ? rawValue.map(String) : [String(rawValue)];
    if (param.kind !== 'uuid[]' && raws.length > 1) {
      details.push(detail(name, 'invalid_type', 'Expected a single value, received several'));
      continue;
    }
    const values: unknown[] = [];
    raws.forEach((raw, i) => {
      const { value, error } = convert(param.kind === 'uuid[]' ? `${name}[${i}]` : name, raw, param);
      if (error) details.push(error);
      else values.push(value);
    });
    out[name] = param.kind === 'uuid[]' ? values : values[0];
  }
  assertValid(details);
  return out as ParsedQuery<S>;
}
