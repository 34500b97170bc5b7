// policy.yaml's segment suppressions (`suppress: - segment: lapsed-vips`) linked to the segment
// rules of the same rule set: a name is a segment rule's `segment.name` or the rule's id. The
// suppression takes that segment's filters, judged on the contact each time a message is judged
// (contact-in-segment.ts): no CRM call, and the same membership in the engine, rule tests,
// forecast and diff. An unknown name is refused (`unknown-segment`): a suppression that holds
// nobody would let every message out. Stages and members must be uuids there (no directory at
// judgement). Pure.
import type { MessagingPolicy } from './messaging-policy';
import { namedStageOrMember } from '../segment-filters/contact-in-segment';
import type { RuleDefinition, RuleProblem, ScheduleTrigger } from '../rules/format/rule-types';
import { hint } from '../rules/format/suggest';
import type { Locator } from '../rules/format/yaml-source';

/** The segments the rule set names: segment rule id, and its segment's name (which wins) → filters as written. */
export function namedSegments(defs: readonly RuleDefinition[]): Map<string, ScheduleTrigger['segment']> {
  const out = new Map<string, ScheduleTrigger['segment']>();
  const schedules = defs.flatMap((d) => (d.trigger.kind === 'schedule' ? [[d.id, d.trigger] as const] : []));
  for (const [id, trigger] of schedules) out.set(id, trigger.segment);
  for (const [, trigger] of schedules)
    if (trigger.segment.name) out.set(trigger.segment.name, trigger.segment);
  return out;
}

export function linkPolicySegments(
  policy: MessagingPolicy | undefined,
  at: Locator | undefined,
  defs: readonly RuleDefinition[],
): { policy?: MessagingPolicy; problems: RuleProblem[] } {
  if (!policy?.suppress?.some((s) => s.segment !== undefined)) return { policy, problems: [] };
  const segments = namedSegments(defs);
  const known = [...segments.keys()].sort();
  const problems: RuleProblem[] = [];
  const where = (i: number) =>
    at ? at.pos(['suppress', i, 'segment']) : { file: 'policy.yaml', line: 1, col: 1 };
  const suppress = policy.suppress.map((s, i) => {
    if (s.segment === undefined) return s;
    const segment = segments.get(s.segment);
    if (!segment) {
      problems.push({
        ...where(i),
        severity: 'error',
        code: 'unknown-segment',
        message: `no segment ${JSON.stringify(s.segment)} in the rule set: a segment rule's segment.name or rule id${hint(s.segment, known)}`,
      });
      return s;
    }
    const named = namedStageOrMember(segment.filters);
    if (named)
      problems.push({
        ...where(i),
        severity: 'error',
        code: 'invalid-policy',
        message: `segment ${s.segment} names ${named}: a suppression judges membership on the contact, where stages and members are uuids`,
      });
    return { ...s, filters: segment.filters };
  });
  return { policy: { ...policy, suppress }, problems };
}
