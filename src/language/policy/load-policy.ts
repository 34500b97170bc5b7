// policy.yaml -> MessagingPolicy: YAML with positions, its own schema (policy.schema.json), then
// the checks a schema cannot make (time zones, hours, durations, .ics files), every problem at
// file:line:col like a rule's. A policy that silently did nothing would let a fourth message out,
// so nothing is guessed: an error refuses the whole rule set, as a broken rule does.
import { posix } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { DEFAULT_TIMEZONE } from '../matching/clock';
import { icsDates } from './ics-dates';
import type { MessagingPolicy, PolicyCap, QuietHours } from './messaging-policy';
import { checkTimeZone } from '../rules/checks/check-timezone';
import { contentHash } from '../rules/format/content-hash';
import { parseDuration } from '../rules/format/durations';
import type { RuleFile } from '../rules/format/load-rules';
import { isPlainObject, ProblemCollector } from '../rules/format/problem-collector';
import type { RuleProblem } from '../rules/format/rule-types';
import { createAjv, issuesToProblems, schemaIssues } from '../rules/format/schema-problems';
import policySchema from './policy.schema.json';
import { parseYamlFile, type Locator, type YamlPath } from '../rules/format/yaml-source';
import { policyCategories } from './load-policy-categories';

const POLICY_RE = /(^|[\\/])policy\.ya?ml$/i;

/** The messaging policy file: `policy.yaml` (or .yml) of the rules directory, never a rule file. */
export function isPolicyFile(path: string): boolean {
  return POLICY_RE.test(path);
}

export function isIcsFile(path: string): boolean {
  return /\.ics$/i.test(path);
}

let validator: ValidateFunction | undefined;

function policyValidator(): ValidateFunction {
  validator ??= createAjv().compile(policySchema);
  return validator;
}

const TIME_RE = /^(\d{1,2}):(\d{2})$/;

function minutes(text: unknown): number | undefined {
  const m = typeof text === 'string' ? TIME_RE.exec(text.trim()) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
  return Number(m[1]) * 60 + Number(m[2]);
}

function readCaps(raw: unknown): PolicyCap[] {
  return ((raw as { max: number; per: string }[] | undefined) ?? []).map((c) => ({
    max: c.max,
    per: c.per,
    perMs: parseDuration(c.per)!,
  }));
}

function readQuietHours(
  q: Record<string, unknown>,
  path: YamlPath,
  ctx: ProblemCollector,
): QuietHours | undefined {
  const from = minutes(q.from);
  const to = minutes(q.to);
  for (const [key, m] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (m === undefined)
      ctx.error(
        [...path, key],
        'invalid-policy',
        `quiet-hours ${key} is a time like "21:00" (00:00-23:59), not ${JSON.stringify(q[key])}`,
      );
  if (from !== undefined && from === to)
    ctx.error(path, 'invalid-policy', 'quiet-hours from and to are equal: the quiet hours would be empty');
  const zone = typeof q.zone === 'string' ? q.zone : 'contact';
  if (zone !== 'contact') checkTimeZone(zone, [...path, 'zone'], ctx);
  return from !== undefined && to !== undefined ? { from, to, zone } : undefined;
}

export interface PolicyLoad {
  policy?: MessagingPolicy;
  problems: RuleProblem[];
  /** Positions in policy.yaml, for the checks made with the rules (link-policy-segments.ts). */
  at?: Locator;
}

/** `files` are every file of the rule set: .ics calendars are looked up among them. Pure. */
export function loadPolicy(policyFiles: readonly RuleFile[], files: readonly RuleFile[]): PolicyLoad {
  const problems: RuleProblem[] = [];
  if (policyFiles.length === 0) return { problems };
  for (const extra of policyFiles.slice(1))
    problems.push({
      file: extra.path,
      line: 1,
      col: 1,
      severity: 'error',
      code: 'duplicate-policy',
      message: `a rule set has one messaging policy; ${policyFiles[0].path} is it already`,
    });
  const file = policyFiles[0];
  const parsed = parseYamlFile(file.path, file.text);
  problems.push(...parsed.problems);
  if (parsed.documents.length !== 1) {
    if (parsed.problems.length === 0)
      problems.push({
        file: file.path,
        line: 1,
        col: 1,
        severity: 'error',
        code: 'invalid-policy',
        message: 'policy.yaml holds one YAML document',
      });
    return { problems };
  }
  const { value: raw, at } = parsed.documents[0];
  const issues = schemaIssues(policyValidator(), raw);
  problems.push(...issuesToProblems(issues, at));
  if (issues.length > 0 || !isPlainObject(raw)) return { problems };
  const ctx = new ProblemCollector(at, problems);
  const timezone = typeof raw.timezone === 'string' ? raw.timezone : DEFAULT_TIMEZONE;
  checkTimeZone(timezone, ['timezone'], ctx);
  const caps = readCaps(raw.caps);
  const q = raw['quiet-hours'] as Record<string, unknown> | undefined;
  const quietHours = q ? readQuietHours(q, ['quiet-hours'], ctx) : undefined;
  const categoriesPart = policyCategories(raw, ctx, readCaps, (x, path) => readQuietHours(x, path, ctx));
  const calendars: Record<string, string[]> = {};
  for (const [name, cal] of Object.entries(
    (raw.calendars as Record<string, { dates?: string[]; ics?: string }>) ?? {},
  )) {
    const path = ['calendars', name];
    if ((cal.dates === undefined) === (cal.ics === undefined)) {
      ctx.error(path, 'invalid-calendar', `calendar ${name} needs either dates: [...] or ics: file.ics`);
      continue;
    }
    if (cal.dates) {
      cal.dates.forEach((d, i) => {
        if (
          Number.isNaN(Date.parse(`${d}T00:00:00Z`)) ||
          new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) !== d
        )
          ctx.error([...path, 'dates', i], 'invalid-calendar', `${d} is not a date of the calendar`);
      });
      calendars[name] = [...new Set(cal.dates)].sort();
      continue;
    }
    const wanted = posix.join(posix.dirname(file.path.replace(/\\/g, '/')), cal.ics!);
    const ics = files.find((f) => f.path.replace(/\\/g, '/') === wanted);
    if (!ics) {
      ctx.error(
        [...path, 'ics'],
        'invalid-calendar',
        `no file ${cal.ics} beside ${file.path} (looked for ${wanted})`,
      );
      continue;
    }
    const read = icsDates(ics.text);
    for (const p of read.problems)
      problems.push({
        file: ics.path,
        line: p.line,
        col: 1,
        severity: p.severity,
        code: 'invalid-calendar',
        message: p.message,
      });
    calendars[name] = read.dates;
  }
  const quietDays = Array.isArray(raw['quiet-days']) ? (raw['quiet-days'] as string[]) : undefined;
  checkQuietDays(ctx, calendars, quietDays, categoriesPart.categories);
  const grace = raw['exempt-replies-within'];
  const policyBody = {
    timezone,
    ...(typeof raw['contact-timezone-field'] === 'string'
      ? { contactTimezoneField: raw['contact-timezone-field'] }
      : {}),
    caps,
    overCap: raw['over-cap'] === 'defer' ? ('defer' as const) : ('skip' as const),
    ...(quietHours ? { quietHours } : {}),
    inQuietHours: q?.then === 'skip' ? ('skip' as const) : ('defer' as const),
    ...(typeof grace === 'string' ? { exemptRepliesWithinMs: parseDuration(grace)! } : {}),
    calendars,
    ...(quietDays && quietDays.length > 0 ? { quietDays } : {}),
    ...categoriesPart,
  };
  if (problems.some((p) => p.severity === 'error')) return { problems };
  return { policy: { hash: contentHash(policyBody), ...policyBody }, problems, at };
}

/** Quiet days name calendars of the policy: an unknown name would hold nothing (`unknown-calendar`). */
function checkQuietDays(
  ctx: ProblemCollector,
  calendars: Record<string, string[]>,
  top: string[] | undefined,
  categories: Record<string, { quietDays?: string[] | null }> | undefined,
): void {
  const known = Object.keys(calendars);
  const lists: [YamlPath, string[] | null | undefined][] = [
    [['quiet-days'], top],
    ...Object.entries(categories ?? {}).map(
      ([name, c]) =>
        [['categories', name, 'quiet-days'], c.quietDays] as [YamlPath, string[] | null | undefined],
    ),
  ];
  for (const [path, names] of lists)
    (names ?? []).forEach((n, i) => {
      if (!calendars[n])
        ctx.error(
          [...path, i],
          'unknown-calendar',
          `no calendar ${JSON.stringify(n)} in calendars:${known.length ? ` (known: ${known.join(', ')})` : ''}`,
        );
    });
}
