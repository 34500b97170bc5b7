// The value of one template tag: `{{fact.path | filter: "arg" | filter}}`. A small, closed filter
// set (default, upcase, downcase, date, number) in place of a template language: nothing in a
// rule or a value can run code, a filter name or argument outside the set is a validate error,
// and a tag without filters reads exactly as plain mustache did. Pure.
import { DateTime, IANAZone } from 'luxon';

export type FilterArg = string | number;

export interface TagFilter {
  name: FilterName;
  args: FilterArg[];
}

export interface TagExpression {
  path: string;
  filters: TagFilter[];
}

export const FILTER_NAMES = ['default', 'upcase', 'downcase', 'date', 'number'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

/** Argument kinds per filter: required ones first, then optional. */
const FILTER_ARGS: Readonly<
  Record<FilterName, { required: ('string' | 'number')[]; optional: ('string' | 'number')[] }>
> = {
  default: { required: ['string'], optional: [] },
  upcase: { required: [], optional: [] },
  downcase: { required: [], optional: [] },
  date: { required: ['string'], optional: ['string'] },
  number: { required: [], optional: ['number'] },
};

const ARG = /^\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?))\s*/;

export class TagSyntaxError extends Error {}

/** Parses a tag's content; throws TagSyntaxError saying what is wrong. */
export function parseTag(content: string): TagExpression {
  const bar = content.indexOf('|');
  const path = (bar === -1 ? content : content.slice(0, bar)).trim();
  if (bar === -1) return { path, filters: [] };
  const filters: TagFilter[] = [];
  let rest = content.slice(bar);
  while (rest.trim() !== '') {
    const head = /^\s*\|\s*([a-z-]+)\s*/.exec(rest);
    if (!head) throw new TagSyntaxError(`expected "| filter" at ${JSON.stringify(rest.trim())}`);
    const name = head[1];
    if (!(FILTER_NAMES as readonly string[]).includes(name))
      throw new TagSyntaxError(`unknown filter "${name}": filters are ${FILTER_NAMES.join(', ')}`);
    rest = rest.slice(head[0].length);
    const args: FilterArg[] = [];
    if (rest.startsWith(':')) {
      rest = rest.slice(1);
      for (;;) {
        const m = ARG.exec(rest);
        if (!m) throw new TagSyntaxError(`${name}: arguments are "quoted text" or numbers`);
        args.push(m[3] !== undefined ? Number(m[3]) : unescape(m[1] ?? m[2]));
        rest = rest.slice(m[0].length);
        if (!rest.startsWith(',')) break;
        rest = rest.slice(1);
      }
    }
    checkArgs(name as FilterName, args);
    filters.push({ name: name as FilterName, args });
  }
  return { path, filters };
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

function checkArgs(name: FilterName, args: FilterArg[]): void {
  const { required, optional } = FILTER_ARGS[name];
  const kinds = [...required, ...optional];
  if (args.length < required.length || args.length > kinds.length) {
    const want =
      kinds.length === 0
        ? 'no argument'
        : `${required.length}${optional.length ? `-${kinds.length}` : ''} argument(s)`;
    throw new TagSyntaxError(`${name} takes ${want}, got ${args.length}`);
  }
  args.forEach((arg, i) => {
    if (typeof arg !== kinds[i])
      throw new TagSyntaxError(
        `${name}: argument ${i + 1} must be ${kinds[i] === 'string' ? 'quoted text' : 'a number'}`,
      );
  });
  if (name === 'date' && args[1] !== undefined && !IANAZone.isValidZone(String(args[1])))
    throw new TagSyntaxError(`date: "${String(args[1])}" is not an IANA time zone`);
  if (
    name === 'number' &&
    args[0] !== undefined &&
    !(Number.isInteger(args[0]) && Number(args[0]) >= 0 && Number(args[0]) <= 10)
  )
    throw new TagSyntaxError('number: the decimals are a whole number from 0 to 10');
}

/** What counts as "no value" for `default`: absent, null, empty text or an empty list. */
export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

export interface FilterOptions {
  /** The zone `date` formats in when the filter names none (the engine passes none: UTC). */
  zone?: string;
}

/** Applies the filters in order; a value a filter cannot read passes through unchanged. */
export function applyFilters(
  value: unknown,
  filters: readonly TagFilter[],
  options: FilterOptions = {},
): unknown {
  let v = value;
  for (const f of filters) v = applyFilter(v, f, options);
  return v;
}

function applyFilter(v: unknown, { name, args }: TagFilter, options: FilterOptions): unknown {
  if (name === 'default') return isBlank(v) ? args[0] : v;
  if (isBlank(v)) return v;
  switch (name) {
    case 'upcase':
      return String(v).toUpperCase();
    case 'downcase':
      return String(v).toLowerCase();
    case 'date':
      return formatDate(
        v,
        String(args[0]),
        args[1] !== undefined ? String(args[1]) : (options.zone ?? 'UTC'),
      );
    case 'number':
      return formatNumber(v, args[0] as number | undefined);
  }
}

function formatDate(v: unknown, format: string, zone: string): unknown {
  const at =
    typeof v === 'number'
      ? DateTime.fromMillis(v, { zone })
      : typeof v === 'string'
        ? DateTime.fromISO(v, { zone, setZone: false })
        : v instanceof Date
          ? DateTime.fromJSDate(v, { zone })
          : undefined;
  return at?.isValid ? at.setZone(zone).toFormat(format, { locale: 'en' }) : v;
}

function formatNumber(v: unknown, decimals: number | undefined): unknown {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n)) return v;
  return new Intl.NumberFormat('en-US', {
    minimumFractionDigits: decimals ?? 0,
    maximumFractionDigits: decimals ?? 20,
  }).format(n);
}
