// What an engine refuses at start that loadConfig cannot decide alone (the CLI shares loadConfig
// and needs neither): a real CRM (CRM_BASE_URL) with the public local sealing key, or with the
// repository's example rules. Pure: the caller says whether RULES_DIR holds the examples.
import type { AppConfig } from './app-config';

export interface StartFacts {
  /** RULES_DIR holds the bundled examples' marker (example-rules.ts). */
  exampleRules: boolean;
}

/** Every reason the engine must not start, naming variables, never their values. */
export function engineStartProblems(config: AppConfig, facts: StartFacts): string[] {
  // Read before startEngine fills crm.baseUrl with the embedded sandbox's URL.
  if (!config.crm.baseUrl) return [];
  const problems: string[] = [];
  if (config.webhookSecretKeys.local)
    problems.push(
      'WEBHOOK_SECRET_KEY is required when CRM_BASE_URL is set: without it the webhook secrets ' +
        'would be sealed with the public local key (32 bytes as 64 hex digits or base64, e.g. ' +
        'openssl rand -base64 32)',
    );
  if (facts.exampleRules && !config.allowExampleRules)
    problems.push(
      `RULES_DIR (${config.rulesDir}) holds the repository's example rules, which would message ` +
        'real customers: with CRM_BASE_URL set, point RULES_DIR at your own rules, delete its ' +
        '.example-rules marker once they are yours, or set ALLOW_EXAMPLE_RULES=true',
    );
  return problems;
}
