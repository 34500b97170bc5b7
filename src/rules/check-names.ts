// Set-level check against a CRM snapshot (rules/.crm-snapshot.json): every tag, stage, member,
// channel and custom field a rule names must exist, or the engine would fail the action at run
// time with unknown_name. Same matching as the engine's directory (id, exact, case-insensitive).
import { findByNameOrId, memberLabels } from '../crm/directory-match';
import type { Member } from '../crm/crm-types';
import type { CrmSnapshot } from '../toolchain/crm-snapshot';
import type { LoadedRule } from './loaded-rule';
import type { RuleAction, RuleProblem } from './rule-types';
import { hint } from './suggest';
import type { Locator, YamlPath } from './yaml-source';

type Kind = 'tag' | 'stage' | 'member' | 'channel' | 'custom field';

interface Use {
  kind: Kind;
  name: string;
  path: YamlPath;
}

const TAG_OPS = new Set(['hasTag', 'hasAnyTag']);

export function checkNames(rules: LoadedRule[], snapshot: CrmSnapshot): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const { def, at } of rules) {
    const uses = [
      ...def.actions.flatMap((a, i) => actionUses(a, ['do', i])),
      ...(def.trigger.kind === 'schedule'
        ? [
            ...def.trigger.onLeave.flatMap((a, i) => actionUses(a, ['on-leave', i])),
            ...filterUses(def.trigger.segment.filters, ['on', 'segment', 'filters']),
          ]
        : []),
      ...conditionUses(def.conditions, ['if']),
    ];
    for (const use of uses) {
      const problem = unknownName(use, snapshot, at);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}

function unknownName(use: Use, s: CrmSnapshot, at: Locator): RuleProblem | undefined {
  const known = lookup(use, s);
  if (known.found) return undefined;
  return {
    ...at.pos(use.path),
    severity: 'error',
    code: 'unknown-name',
    message: `unknown ${use.kind} "${use.name}" in the CRM snapshot of ${s.takenAt.slice(0, 10)}${known.labels.length ? hint(use.name, known.labels, 0) : ''}; create it in the CRM and run crm-rules snapshot, or fix the name`,
  };
}

function lookup(use: Use, s: CrmSnapshot): { found: boolean; labels: string[] } {
  const byName = <T extends { id: string; name: string }>(items: T[]) => ({
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
    case 'custom field':
      return {
        found: s.customFields.some((f) => f.fieldKey === use.name || f.id === use.name),
        labels: s.customFields.map((f) => f.fieldKey),
      };
  }
}

function actionUses(a: RuleAction, path: YamlPath): Use[] {
  const at = (key: string) => [...path, a.type, ...(key ? [key] : [])];
  switch (a.type) {
    case 'add-tag':
    case 'remove-tag':
      return [{ kind: 'tag', name: a.tag, path: at('') }];
    case 'move-stage':
      return a.stage === null ? [] : [{ kind: 'stage', name: a.stage, path: at('') }];
    case 'assign':
      return a.member.toLowerCase() === 'round-robin'
        ? []
        : [{ kind: 'member', name: a.member, path: at('') }];
    case 'react':
    case 'send-message':
      return a.assignFirst && a.assignFirst.toLowerCase() !== 'round-robin'
        ? [{ kind: 'member', name: a.assignFirst, path: [...path, 'assign-first'] }]
        : [];
    case 'open-conversation':
      return [{ kind: 'channel', name: a.channel, path: at('') }];
    case 'create-segment':
      return filterUses(a.filters as Record<string, unknown>, at('filters'));
    default:
      return [];
  }
}

const FILTER_KINDS: [member: string, kind: Kind][] = [
  ['tagIds', 'tag'],
  ['stageIds', 'stage'],
  ['assigneeIds', 'member'],
];

function filterUses(filters: Record<string, unknown>, path: YamlPath): Use[] {
  const uses: Use[] = [];
  for (const [member, kind] of FILTER_KINDS) {
    const values = filters[member];
    if (!Array.isArray(values)) continue;
    values.forEach(
      (v, j) => typeof v === 'string' && uses.push({ kind, name: v, path: [...path, member, j] }),
    );
  }
  const custom = filters.customFieldFilters;
  if (Array.isArray(custom))
    custom.forEach((f: { fieldKey?: unknown }, j) => {
      if (typeof f?.fieldKey === 'string')
        uses.push({
          kind: 'custom field',
          name: f.fieldKey,
          path: [...path, 'customFieldFilters', j, 'fieldKey'],
        });
    });
  return uses;
}

/** Tag names in hasTag / hasAnyTag leaves; the YAML of `if` has the same all/any/not shape. */
function conditionUses(node: unknown, path: YamlPath): Use[] {
  if (!node || typeof node !== 'object') return [];
  const n = node as Record<string, unknown>;
  const uses: Use[] = [];
  for (const key of ['all', 'any'])
    if (Array.isArray(n[key]))
      (n[key] as unknown[]).forEach((c, i) => uses.push(...conditionUses(c, [...path, key, i])));
  if (n.not) uses.push(...conditionUses(n.not, [...path, 'not']));
  const op = typeof n.operator === 'string' ? n.operator.replace(/^(not:)+/, '') : undefined;
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
