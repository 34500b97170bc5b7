// Names drift (issue 31 goal 5, pure): the names a rule set uses that the live CRM directory lacks
// or cannot use (a tag deleted, a template un-approved), found by the same name check as
// `crm-rules validate` against a snapshot, here the live directory.
import type { CrmSnapshot } from '../../../language/crm-terms/crm-snapshot';
import { loadRulesFromFiles } from '../../../language/rules/format/load-rules';
import type { RuleProblem } from '../../../language/rules/format/rule-types';
import { versionFiles } from './directory-version';

export interface MissingName {
  /** tag, stage, member, channel, template, custom field… (the first word the check names). */
  kind: string;
  at: string;
  message: string;
}

const KINDS = ['custom field', 'tag', 'stage', 'member', 'role', 'channel', 'template'];

export function missingNames(files: Record<string, string>, live: CrmSnapshot): MissingName[] {
  return loadRulesFromFiles(versionFiles(files), { snapshot: live })
    .problems.filter((p: RuleProblem) => p.code === 'unknown-name')
    .map((p) => ({
      kind: KINDS.find((k) => p.message.includes(`${k} "`)) ?? 'name',
      at: `${p.file}:${p.line}:${p.col}`,
      message: p.message,
    }));
}
