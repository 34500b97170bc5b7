// The `action` definition of src/language/rules/format/rule.schema.json, built from the catalogue: editors read
// the JSON file, so it is written by `npm run schema:write` and a test keeps it equal to this.
import { listInWords } from './action-definition';
import { ACTION_DEFINITIONS } from './catalogue';

export function actionSchema(): Record<string, unknown> {
  const types = ACTION_DEFINITIONS.map((d) => d.type);
  const bare = ACTION_DEFINITIONS.filter((d) => d.bare).map((d) => d.type);
  const messaging = ACTION_DEFINITIONS.filter((d) => d.messaging).map((d) => d.type);
  return {
    description: `One action: ${listInWords(types).replace(/ and (\S+)$/, ' or $1')}.`,
    if: { type: 'string' },
    then: {
      enum: bare,
      'x-problem-code': 'unknown-action',
      'x-label': 'action',
      'x-message': `only ${listInWords(bare)} are written alone; the other actions take a value, e.g. \`add-tag: vip\``,
    },
    else: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      'x-problem-code': 'unknown-action',
      'x-message': 'must be an action, e.g. `add-tag: vip` or `block`',
      properties: {
        ...Object.fromEntries(ACTION_DEFINITIONS.map((d) => [d.type, d.schema])),
        'assign-first': {
          type: 'string',
          minLength: 1,
          description: `With ${listInWords(messaging)}: the member (name, email, uuid or round-robin) to assign when the contact has no assignee.`,
        },
        // The policy category of a customer message (src/language/rules/format/message-categories.ts).
        category: {
          type: 'string',
          pattern: '^[a-z][a-z0-9_-]{0,39}$',
          description:
            "With send-message and send-template: the messaging policy's category of this message (policy.yaml categories:), over the rule's.",
        },
        // Control qualifiers of any action, parsed by src/language/rules/format/parse-steps.ts.
        'on-failure': {
          $ref: '#/definitions/steps',
          description:
            'Steps to run when this action ends failed or dead (not when its outcome is uncertain); then the run goes on after them.',
        },
        window: {
          $ref: '#/definitions/window',
          description:
            'This action happens only inside the window: outside it the run waits (outside: wait) or the action is skipped (outside: skip).',
        },
      },
    },
  };
}
