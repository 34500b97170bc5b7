// Fixture: breaks cli-loads-no-nest only (Nest reached through the core and ops at run time).
import { matchedAt } from '../../language/matching/matcher';

export const explain = () => matchedAt();
