// The repository's bundled example rules (rules/) carry a marker file, EXAMPLE_RULES_MARKER: they
// send a welcome template, react to messages and sync a segment. Against a real CRM they would
// message real customers, so an engine with CRM_BASE_URL refuses a RULES_DIR holding the marker
// (start-checks.ts) unless ALLOW_EXAMPLE_RULES=true. A directory of one's own rules copied from
// rules/ runs once the marker is deleted. Hidden files are not rules (load-rules.ts skips them).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const EXAMPLE_RULES_MARKER = '.example-rules';

export function holdsExampleRules(rulesDir: string): boolean {
  return existsSync(join(rulesDir, EXAMPLE_RULES_MARKER));
}
