// The files `crm-rules init` writes: a rules repository of its own, usable with no engine,
// database or Redis (validate, test, forecast and diff run from files). Pure: paths and texts.
import { emptySnapshot } from '../../language/crm-terms/crm-snapshot';

export interface InitOptions {
  /** npm spec of this tool: a git URL (git+https://...#tag) or a tarball made by `npm pack`. */
  toolSpec: string;
  name: string;
}

export function initFiles(opts: InitOptions): Record<string, string> {
  return {
    'package.json': `${JSON.stringify(
      {
        name: opts.name,
        private: true,
        description: 'Automation rules of the CRM, checked offline by crm-rules',
        scripts: {
          validate: 'crm-rules validate rules',
          test: 'crm-rules test rules --coverage',
          snapshot: 'crm-rules snapshot rules --contacts',
          forecast: 'crm-rules forecast rules',
          graph: 'crm-rules graph rules',
        },
        devDependencies: { 'crm-rules-runner': opts.toolSpec },
      },
      null,
      2,
    )}\n`,
    '.gitignore':
      'node_modules/\n# contacts are personal data: keep them out of git (CI pulls them or reads an export)\nrules/.crm-contacts.ndjson\n',
    'rules/welcome.yaml': `# yaml-language-server: $schema=../schemas/rule.schema.json
rule: tag-new-contacts
description: Tag every contact the CRM creates, so ops can find the newcomers
on: contact.created
if:
  all:
    - { fact: contact.isBlocked, operator: equal, value: false }
do:
  - add-tag: new-contact
`,
    'rules/welcome.test.yaml': `# yaml-language-server: $schema=../schemas/rule-test.schema.json
defaults:
  now: '2024-05-01T10:00:00Z'
  contact:
    id: 0b6f1f5e-8a6c-4b0e-9a57-1c2f4d7e9a01
    name: Maria Silva
    phone: '351912345678'
    status: active
    isBlocked: false
    sourceMethod: MANUAL
    assigneeId: null
    stageId: null
    tags: []
    createdAt: '2024-05-01T09:59:58Z'
    updatedAt: '2024-05-01T09:59:58Z'
    lastInteractionAt: null
tests:
  - name: tags a new contact
    event: { type: contact.created }
    expect:
      - add-tag: new-contact
  - name: leaves blocked contacts alone
    event: { type: contact.created }
    contact: { isBlocked: true }
    expect: none
`,
    // A placeholder until the first `crm-rules snapshot`: names are not checked against it.
    'rules/.crm-snapshot.json': `${JSON.stringify(emptySnapshot(), null, 2)}\n`,
    '.github/workflows/rules.yml': WORKFLOW,
  };
}

const WORKFLOW = `# Validate, test, graph, forecast and diff the rules on every pull request; problems become
# annotations on the changed lines; the rule graph, forecast and diff go to the job summary (the
# graph also as a DOT artifact). Needs no engine, database or Redis.
name: rules
on:
  pull_request:
  push:
    branches: [main]
jobs:
  rules:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # diff reads the base branch's rules with git show
      - uses: actions/setup-node@v4
        with:
          node-version: 22
      - run: npm install --no-audit --no-fund
      - name: validate
        run: npx crm-rules validate rules --format github
      - name: test
        run: npx crm-rules test rules --coverage
      - name: graph
        run: |
          npx crm-rules graph rules --format dot --output rules-graph.dot
          { echo '### Rule graph'; echo '\`\`\`mermaid'; npx crm-rules graph rules; echo '\`\`\`'; } >> "$GITHUB_STEP_SUMMARY"
      - name: graph artifact (optional)
        continue-on-error: true
        uses: actions/upload-artifact@v4
        with:
          name: rules-graph
          path: rules-graph.dot
      - name: contacts and recorded events from the engine (optional)
        if: \${{ env.ENGINE_URL != '' }}
        env:
          ENGINE_URL: \${{ vars.ENGINE_URL }}
          ADMIN_TOKEN: \${{ secrets.ADMIN_TOKEN }}
        run: |
          curl -fsS -H "Authorization: Bearer $ADMIN_TOKEN" "$ENGINE_URL/admin/mirror/export" -o rules/.crm-contacts.ndjson
          curl -fsS -H "Authorization: Bearer $ADMIN_TOKEN" "$ENGINE_URL/admin/events/export" -o events.ndjson
      - name: forecast
        if: \${{ hashFiles('rules/.crm-contacts.ndjson') != '' }}
        run: npx crm-rules forecast rules --format markdown >> "$GITHUB_STEP_SUMMARY"
      - name: diff
        if: \${{ github.event_name == 'pull_request' && hashFiles('events.ndjson') != '' }}
        run: npx crm-rules diff rules --base "origin/\${{ github.base_ref }}" --events events.ndjson --format markdown >> "$GITHUB_STEP_SUMMARY"
`;
