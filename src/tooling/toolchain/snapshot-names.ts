// Offline name resolution for change operators (`changedTo: Qualified`): rule tests and explain
// have no CRM, so stage and member names resolve through the CRM snapshot, matched the way the
// engine's directory matches them (id, exact name, case-insensitive; members also by email).
import { findByNameOrId, memberLabels } from '../../language/crm-terms/directory-match';
import type { Member } from '@crm-rules/crm-contract';
import type { NameResolver } from '../../language/rules/format/rule-types';
import type { CrmSnapshot } from '../../language/crm-terms/crm-snapshot';

/** Without a snapshot, a name equals only itself (a test may write `stageId: Qualified`). */
export function snapshotNames(snapshot: CrmSnapshot | undefined): NameResolver | undefined {
  if (!snapshot) return undefined;
  return (kind, name) =>
    kind === 'stage'
      ? findByNameOrId(snapshot.stages, name, (s) => [s.name])?.id
      : findByNameOrId(snapshot.members as unknown as Member[], name, memberLabels)?.id;
}
