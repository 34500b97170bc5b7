// Fixture: a repository may compile the segment's WHERE into its statements (allowed).
import { segmentWhere } from '../../language/segment-filters/segment-sql';

export const membersWhere = () => segmentWhere().sql;
