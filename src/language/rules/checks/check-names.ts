// Set-level check against a CRM snapshot (rules/.crm-snapshot.json): every tag, stage, member,
// channel, custom field, select option and template a rule names must exist (and a template be
// approved), or the engine would fail the action at run time with unknown_name. Same matching as
// the engine's directory (id, exact, case-insensitive). Each action declares its names in its
// catalogue entry (`names`); this file only knows triggers, conditions and the snapshot.
import type { NameUse } from '../../catalogue/action-definition';
import { actionDefinition } from '../../catalogue/catalogue';
import { findByNameOrId, memberLabels } from '../../crm-terms/directory-match';
import { NAMED_ID_FIELDS } from '../../matching/change-operators';
import { actionPath } from '../format/parse-steps';
import type { Member } from '@crm-rules/crm-contract';
import type { CrmSnapshot } from '../../crm-terms/crm-snapshot';
import type { LoadedRule } from '../format/loaded-rule';
import type { RuleAction, RuleProblem } from '../format/rule-types';
import { segmentFilterNames } from '../format/segment-filter-names';
import { hint } from '../format/suggest';
import type { Locator, YamlPath } from '../format/yaml-source';

/** Operators whose value names a tag (`added` / `removed`: change operators). */
const TAG_OPS = new Set(['hasTag', 'hasAnyTag', 'added', 'removed']);
const SELECT_TYPES = new Set(['SINGLE_SELECT', 'MULTI_SELECT']);

export function checkNames(rules: LoadedRule[], snapshot: CrmSnapshot): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const { def, at } of rules) {
    const uses = [
      ...def.actions.flatMap((a, i) => actionUses(a, actionPath(def, i))),
      ...(def.trigger.kind === 'schedule'
        ? [
            ...def.trigger.onLeave.flatMap((a, i) => actionUses(a, ['on-leave', i])),
            ...within(['on', 'segment', 'filters'], segmentFilterNames(def.trigger.segment.filters)),
          ]
        : []),
      ...conditionUses(def.conditions, ['if']),
    ];
    for (const use of uses) {
      const problem = checkName(use, snapshot, at);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}

const within = (path: YamlPath, uses: NameUse[]): NameUse[] =>
  uses.map((u) => ({ ...u, path: [...path, ...u.path] }));

/** The action's own names (from its catalogue entry), and the member of `assign-first`. */
function actionUses(a: RuleAction, path: YamlPath): NameUse[] {
  const own = within([...path, a.type], actionDefinition(a.type).names?.(a) ?? []);
  const first = 'assignFirst' in a ? a.assignFirst : undefined;
  return first && first.toLowerCase() !== 'round-robin'
    ? [...own, { kind: 'member', name: first, path: [...path, 'assign-first'] }]
    : own;
}

interface Lookup {
  found: boolean;
  labels: string[];
  /** Found, but the engine cannot use it (a template not approved, an inactive field). */
  unusable?: string;
  /** The name as the message shows it (`welcome (pt)`, `plan: Gold`). */
  shown?: string;
}

function checkName(use: NameUse, s: CrmSnapshot, at: Locator): RuleProblem | undefined {
  const known = lookup(use, s);
  if (!known) return undefined;
  const taken = `the CRM snapshot of ${s.takenAt.slice(0, 10)}`;
  const shown = known.shown ?? use.name;
  if (known.found && !known.unusable) return undefined;
  const message = known.found
    ? `${use.kind} "${shown}" ${known.unusable} in ${taken}; the engine would fail the action at run time`
    : `unknown ${use.kind} "${shown}" in ${taken}${known.labels.length ? hint(shown, known.labels, 0) : ''}; create it in the CRM and run crm-rules snapshot, or fix the name`;
  return { ...at.pos(use.path), severity: 'error', code: 'unknown-name', message };
}

/** undefined: nothing to check (an option of an unknown or non-select field). */
function lookup(use: NameUse, s: CrmSnapshot): Lookup | undefined {
  const byName = <T extends { id: string; name: string }>(items: T[]): Lookup => ({
    found: findByNameOrId(items, use.name, (x) => [x.name]) !== undefined,
    labels: items.map((x) => x.name),
  });
  switch (use.kind) {
    case 'tag':
      return byName(s.tags);
    case 'stage':
      return byName(s.stages);
    case 'channel':
      return byName(s.channels);
    case 'member': {
      const members = s.members as unknown as Member[];
      return {
        found: findByNameOrId(members, use.name, memberLabels) !== undefined,
        labels: members.flatMap(memberLabels),
      };
    }
    case 'role':
      return roleLookup(use.name, s);
    case 'custom field': {
      const field = findByNameOrId(s.customFields, use.name, (f) => [f.fieldKey]);
      const inactive = field && field.status && field.status.toUpperCase() !== 'ACTIVE';
      return {
        found: !!field,
        labels: s.customFields.map((f) => f.fieldKey),
        ...(inactive ? { unusable: `is ${field.status}, not ACTIVE` } : {}),
      };
    }
    case 'option': {
      const field = findByNameOrId(s.customFields, use.field ?? '', (f) => [f.fieldKey]);
      if (!field || !SELECT_TYPES.has(field.type)) return undefined;
      return {
        found: findByNameOrId(field.options, use.name, (o) => [o.label]) !== undefined,
        labels: field.options.map((o) => o.label),
        shown: use.name,
      };
    }
    case 'template':
      return templateLookup(use, s);
  }
}

/**
 * A pool's role: some member holds it (case-insensitive, as the engine's pool matches). A snapshot
 * taken before members carried their role cannot tell: not checked.
 */
function roleLookup(role: string, s: CrmSnapshot): Lookup | undefined {
  const fold = (x: string) => x.trim().toLowerCase();
  const roles = [
    ...new Set(s.members.flatMap((m) => (typeof m.role === 'string' && m.role ? [m.role] : []))),
  ];
  if (roles.length === 0) return undefined;
  return { found: roles.some((r) => fold(r) === fold(role)), labels: roles };
}

/**
 * The engine sends only APPROVED templates; with a language it matches `name (language)`. A
 * snapshot taken before templates carried their language cannot check the language: names only.
 */
function templateLookup(use: NameUse, s: CrmSnapshot): Lookup {
  const withLanguage = use.language !== undefined && s.templates.some((t) => t.language !== undefined);
  const labelsOf = (t: CrmSnapshot['templates'][number]) =>
    withLanguage ? [`${t.name} (${String(t.language)})`, `${t.id} (${String(t.language)})`] : [t.name];
  const wanted = withLanguage ? `${use.name} (${use.language})` : use.name;
  const template = findByNameOrId(s.templates, wanted, labelsOf);
  const status = template?.status ?? '';
  const fold = (x: string) => x.trim().toLowerCase();
  const namesakes = s.templates.filter((t) => fold(t.name) === fold(use.name));
  if (use.language !== undefined && !withLanguage && namesakes.length > 0) {
    const approved = namesakes.some((t) => t.status?.toUpperCase() === 'APPROVED');
    return { found: true, labels: [], ...(approved ? {} : { unusable: 'is not APPROVED' }) };
  }
  if (!template && !withLanguage && namesakes.length > 1) {
    const languages = namesakes.map((t) => t.language ?? '?').join(', ');
    return {
      found: true,
      labels: [],
      shown: wanted,
      unusable: `names ${namesakes.length} templates (languages ${languages}): give its language`,
    };
  }
  return {
    found: !!template,
    labels: s.templates.flatMap((t) => labelsOf(t).slice(0, 1)),
    shown: wanted,
    ...(template && status.toUpperCase() !== 'APPROVED'
      ? { unusable: `is ${status || 'without a status'}, not APPROVED` }
      : {}),
  };
}

/** `changedTo: Qualified` on contact.stageId names a stage (assigneeId: a member); a uuid is checked too. */
function namedIdField(path: unknown): 'stage' | 'member' | undefined {
  return typeof path === 'string' ? NAMED_ID_FIELDS[path.replace(/^\$\./, '')] : undefined;
}

/** Tag names in hasTag / hasAnyTag / added / removed leaves, stage and member names of changedTo / changedFrom; the YAML of `if` has the same all/any/not shape. */
function conditionUses(node: unknown, path: YamlPath): NameUse[] {
  if (!node || typeof node !== 'object') return [];
  const n = node as Record<string, unknown>;
  const uses: NameUse[] = [];
  for (const key of ['all', 'any'])
    if (Array.isArray(n[key]))
      (n[key] as unknown[]).forEach((c, i) => uses.push(...conditionUses(c, [...path, key, i])));
  if (n.not) uses.push(...conditionUses(n.not, [...path, 'not']));
  const op = typeof n.operator === 'string' ? n.operator.replace(/^(not:)+/, '') : undefined;
  const named = op === 'changedTo' || op === 'changedFrom' ? namedIdField(n.path) : undefined;
  if (named && typeof n.value === 'string')
    uses.push({ kind: named, name: n.value, path: [...path, 'value'] });
  if (op && TAG_OPS.has(op)) {
    const values = Array.isArray(n.value) ? n.value : [n.value];
    values.forEach((v, j) => {
      if (typeof v === 'string')
        uses.push({
          kind: 'tag',
          name: v,
          path: Array.isArray(n.value) ? [...path, 'value', j] : [...path, 'value'],
        });
    });
  }
  return uses;
}
