// Fixture: breaks persistence-is-below (retention importing a table's owner above it, instead of
// asking it for its pruner).
import { membersWhere } from '../../pipeline/segments/memberships.repository';

export const pruneMemberships = () => membersWhere();
