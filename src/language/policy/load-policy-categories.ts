// policy.yaml's `categories:`, `default-category:`, `suppress:` and `holdout:` (schema-checked) ->
// the normalised shapes of src/language/policy/policy-categories.ts. A suppression naming a
// category the policy does not declare is refused (`unknown-category`): it would hold nothing.
import { DEFAULT_CATEGORY, type CategoryRules, type Suppression } from './policy-categories';
import type { PolicyCap, QuietHours } from './messaging-policy';
import type { Holdout } from './holdout';
import type { ProblemCollector } from '../rules/format/problem-collector';

export interface PolicyCategoriesPart {
  categories?: Record<string, CategoryRules>;
  defaultCategory?: string;
  suppress?: Suppression[];
  holdout?: Holdout;
}

/** The categories a rule or action may name under this policy: the declared, and the default. */
export function knownCategories(part: PolicyCategoriesPart | undefined): string[] {
  return [
    ...new Set([...Object.keys(part?.categories ?? {}), part?.defaultCategory ?? DEFAULT_CATEGORY]),
  ].sort();
}

export function policyCategories(
  raw: Record<string, unknown>,
  ctx: ProblemCollector,
  readCaps: (raw: unknown) => PolicyCap[],
  readQuietHours: (raw: Record<string, unknown>, path: (string | number)[]) => QuietHours | undefined,
): PolicyCategoriesPart {
  const out: PolicyCategoriesPart = {};
  const written = raw.categories as Record<string, Record<string, unknown>> | undefined;
  if (written) {
    out.categories = {};
    for (const [name, c] of Object.entries(written)) {
      const rules: CategoryRules = {};
      if (c.caps !== undefined) rules.caps = readCaps(c.caps);
      if (c['over-cap'] !== undefined) rules.overCap = c['over-cap'] === 'defer' ? 'defer' : 'skip';
      const q = c['quiet-hours'];
      if (q === 'none') rules.quietHours = null;
      else if (q && typeof q === 'object') {
        const quiet = readQuietHours(q as Record<string, unknown>, ['categories', name, 'quiet-hours']);
        if (quiet) rules.quietHours = quiet;
        rules.inQuietHours = (q as { then?: unknown }).then === 'skip' ? 'skip' : 'defer';
      }
      const days = c['quiet-days'];
      if (days === 'none') rules.quietDays = null;
      else if (Array.isArray(days)) rules.quietDays = days as string[];
      out.categories[name] = rules;
    }
  }
  if (typeof raw['default-category'] === 'string') out.defaultCategory = raw['default-category'];
  const known = knownCategories(out);
  const suppress = raw.suppress as Record<string, unknown>[] | undefined;
  if (suppress) {
    out.suppress = suppress.map((s, i) => {
      const categories = s.categories as string[] | undefined;
      categories?.forEach((c, j) => {
        if (!known.includes(c))
          ctx.error(
            ['suppress', i, 'categories', j],
            'unknown-category',
            `no category ${c} in the policy (known: ${known.join(', ')})`,
          );
      });
      const words = [
        s.tag !== undefined ? `tag ${String(s.tag)}` : '',
        s.field !== undefined
          ? `field ${String(s.field)}${s.equals !== undefined ? ` = ${JSON.stringify(s.equals)}` : ''}`
          : '',
        s.segment !== undefined ? `segment ${String(s.segment)}` : '',
      ].filter(Boolean);
      return {
        name: words.join(' and ') || 'suppression',
        ...(typeof s.tag === 'string' ? { tag: s.tag } : {}),
        ...(typeof s.field === 'string' ? { field: s.field } : {}),
        ...(s.equals !== undefined ? { equals: s.equals as string | number | boolean } : {}),
        ...(typeof s.segment === 'string' ? { segment: s.segment } : {}),
        ...(categories ? { categories } : {}),
      };
    });
    for (const [i, s] of out.suppress.entries())
      if (s.tag === undefined && s.field === undefined && s.segment === undefined)
        ctx.error(['suppress', i], 'invalid-policy', 'a suppression needs tag:, field: or segment:');
  }
  const holdout = raw.holdout as { percent: number; salt?: string; categories?: string[] } | undefined;
  if (holdout) {
    holdout.categories?.forEach((c, j) => {
      if (!known.includes(c))
        ctx.error(
          ['holdout', 'categories', j],
          'unknown-category',
          `no category ${c} in the policy (known: ${known.join(', ')})`,
        );
    });
    out.holdout = {
      percent: holdout.percent,
      salt: holdout.salt ?? 'holdout',
      ...(holdout.categories ? { categories: holdout.categories } : {}),
    };
  }
  if (out.defaultCategory && out.categories && !(out.defaultCategory in out.categories))
    ctx.error(
      ['default-category'],
      'unknown-category',
      `default-category ${out.defaultCategory} is not one of categories: ${Object.keys(out.categories).join(', ')}`,
    );
  return out;
}
