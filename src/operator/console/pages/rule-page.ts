// What the rule page shows beside its numbers: the rule's own YAML document out of its file, and
// whether a manual run can ever match it (or why not). Pure.
import { usesChangeOperator } from '../../../language/matching/change-operators';
import type { RuleDefinition } from '../../../language/rules/format/rule-types';

/**
 * The YAML document of a file (documents split by `---` lines) holding line `line`, with the
 * number of its first line. A file of one rule is the whole file.
 */
export function ruleDocument(fileText: string, line: number): { text: string; firstLine: number } {
  const lines = fileText.replace(/\n$/, '').split('\n');
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!/^---\s*$/.test(lines[i])) continue;
    if (i + 1 >= line) {
      return { text: lines.slice(start, i).join('\n'), firstLine: start + 1 };
    }
    start = i + 1;
  }
  return { text: lines.slice(start).join('\n'), firstLine: start + 1 };
}

/**
 * Why a manual run of the rule can never match, or null when it can. A manual run carries no
 * event (pipeline/admission/manual-runs): a rule started only by messages has no message to read,
 * and a change operator (changedTo, added...) has no previous state to compare, so its
 * conditions never hold. Segment and disabled rules are refused by the admission itself.
 */
export function manualRunBlocker(rule: RuleDefinition): string | null {
  const t = rule.trigger;
  if (t.kind !== 'event')
    return "a segment rule acts on its segment's members on its schedule; a manual run is for event rules";
  if (!rule.enabled) return 'the rule is disabled in its file (enabled: false)';
  if (t.events.every((e) => e.startsWith('message.')))
    return `it starts on ${t.events.join(', ')}: a manual run carries no message, so it never matches`;
  if (usesChangeOperator(rule.conditions))
    return 'its conditions compare what an event changed (changedTo, added, ...): a manual run has no previous state, so they never hold';
  return null;
}
