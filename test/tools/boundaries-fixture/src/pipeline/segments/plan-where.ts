// Fixture: breaks segment-sql-only-in-repositories (a WHERE fragment used outside a repository).
import { segmentWhere } from '../../language/segment-filters/segment-sql';

export const where = () => segmentWhere().sql;
