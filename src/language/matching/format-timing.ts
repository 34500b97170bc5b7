// The timing of a rule as people read it in explain output: windows, limits, at-most, and the
// steps of `do` with their waits ("wait 2h, unless ..., cancelled by message.created ...").
import { originText } from '../rules/format/action-origin';
import type { BranchStep, RuleDefinition, WaitStep } from '../rules/format/rule-types';
import { describeWindow } from '../rules/gates/time-window';
import { actionLabel } from '../catalogue/catalogue';
import { describeLeaf } from './format-explain';

const DURATION_UNITS: [number, string][] = [
  [604_800_000, 'w'],
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'm'],
  [1000, 's'],
];

export function durationText(ms: number): string {
  const [size, unit] = DURATION_UNITS.find(([size]) => ms % size === 0) ?? [1, 'ms'];
  return `${ms / size}${unit}`;
}

/** Lines describing window, limit and at-most (none when the rule has none). */
export function formatRuleTiming(rule: RuleDefinition, indent: string): string[] {
  const lines: string[] = [];
  if (rule.window)
    lines.push(`${indent}window: ${describeWindow(rule.window)}, outside: ${rule.window.outside}`);
  if (rule.limit)
    lines.push(
      `${indent}limit: ${rule.limit.max} runs per ${durationText(rule.limit.perMs)}, over: ${rule.limit.over}`,
    );
  if (rule.atMost !== undefined) lines.push(`${indent}at most ${rule.atMost} runs per contact`);
  return lines;
}

/** The actions in order with the waits between them, as one line; branches nested in braces. */
export function stepsText(rule: RuleDefinition, actions = rule.actions): string {
  if (rule.branches && actions === rule.actions) return branchedText(rule);
  const parts: string[] = [];
  actions.forEach((action, i) => {
    for (const wait of rule.waits ?? []) if (wait.beforeAction === i) parts.push(waitText(wait));
    const window = rule.actionWindows?.find((w) => w.action === i)?.window;
    parts.push(
      actionLabel(action) +
        originText(rule, i) +
        (window ? ` [window ${describeWindow(window)}, outside: ${window.outside}]` : ''),
    );
  });
  return parts.join(', ');
}

/** A rule with branches: waits and branches in written order, each arm's steps in braces. */
function branchedText(rule: RuleDefinition): string {
  const used = new Set<object>();
  const waits = rule.waits ?? [];
  const branches = rule.branches ?? [];
  const render = (from: number, to: number): string => {
    const parts: string[] = [];
    for (let i = from; i < to;) {
      const next = nextAt(i);
      if (!next) {
        const window = rule.actionWindows?.find((w) => w.action === i)?.window;
        parts.push(
          actionLabel(rule.actions[i]) +
            originText(rule, i) +
            (window ? ` [window ${describeWindow(window)}]` : ''),
        );
        i++;
        continue;
      }
      used.add(next);
      if ('ms' in next) {
        parts.push(waitText(next));
        continue;
      }
      const arms = next.arms.map((a) => {
        const when = a.when ? ` if ${conditionText(a.when)}` : a.weight ? ` (weight ${a.weight})` : '';
        return `${a.label}${when}: { ${render(a.from, a.to) || '(nothing)'} }`;
      });
      parts.push(next.kind === 'repeat' ? `again → ${arms.join(' ')}` : `${next.kind} ${arms.join(' ')}`);
      i = next.end;
    }
    return parts.join(', ');
  };
  // The wait or branch written first among those before action i and not shown yet.
  const nextAt = (i: number): WaitStep | BranchStep | undefined =>
    [
      ...waits.map((w, k) => ({ key: 2 * k + 1, step: w as WaitStep | BranchStep, at: w.beforeAction })),
      ...branches.map((b) => ({ key: 2 * b.afterWaits, step: b as WaitStep | BranchStep, at: b.at })),
    ]
      .filter((c) => c.at === i && !used.has(c.step))
      .sort((a, b) => a.key - b.key)[0]?.step;
  return render(0, rule.actions.length);
}

export function waitText(wait: WaitStep): string {
  const parts = [`wait ${durationText(wait.ms)}`];
  if (wait.unless) parts.push(`unless ${conditionText(wait.unless)}`);
  if (wait.until) {
    const where = wait.until.where ? ` where ${conditionText(wait.until.where)}` : '';
    const same = wait.until.sameConversation ? ' in the same conversation' : '';
    parts.push(`${wait.outcomes ? 'ended' : 'cancelled'} by ${wait.until.events.join('/')}${where}${same}`);
  }
  return parts.join(' ');
}

type Node = Record<string, unknown>;

function conditionText(node: Node): string {
  for (const kind of ['all', 'any'] as const) {
    if (!Array.isArray(node[kind])) continue;
    const children = (node[kind] as Node[]).map(conditionText);
    return children.length === 1 ? children[0] : `${kind}(${children.join('; ')})`;
  }
  if (node.not && typeof node.not === 'object') return `not(${conditionText(node.not as Node)})`;
  const { fact, path, operator, value, since } = node as Record<string, string | undefined>;
  return describeLeaf({ fact: fact!, path, operator: operator!, expected: value, since: since as never });
}
