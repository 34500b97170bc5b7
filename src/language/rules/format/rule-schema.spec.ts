// The published schema is what editors see: it must stay in step with the code.
import { EVENT_KINDS } from '@crm-rules/crm-contract';
import { OPERATOR_NAMES } from '../../matching/operators';
import { actionSchema } from '../../catalogue/action-schema';
import { ACTION_KEYS } from './parse-actions';
import schema from './rule.schema.json';
import testSchema from '../testing/rule-test.schema.json';

type Json = Record<string, unknown>;

/** Every property schema without a description, as JSON pointers. */
function undocumented(node: unknown, at: string, out: string[]): string[] {
  if (!node || typeof node !== 'object') return out;
  const obj = node as Json;
  if (obj.properties && typeof obj.properties === 'object') {
    for (const [key, sub] of Object.entries(obj.properties as Json)) {
      if (!(sub as Json).description) out.push(`${at}/properties/${key}`);
    }
  }
  for (const [key, sub] of Object.entries(obj))
    if (typeof sub === 'object') undocumented(sub, `${at}/${key}`, out);
  return out;
}

describe('rule.schema.json', () => {
  it('describes every property, for hover docs', () => {
    expect(undocumented(schema, '#', [])).toEqual([]);
    expect(undocumented(testSchema, '#', [])).toEqual([]);
  });

  it('lists exactly the event kinds of crm-types.ts', () => {
    expect(schema.definitions.eventKind.else.enum).toEqual([...EVENT_KINDS]);
  });

  it('holds the action definition the catalogue generates (npm run schema:write)', () => {
    expect(schema.definitions.action).toEqual(actionSchema());
  });

  it('lists exactly the actions and operators the loader knows', () => {
    const props = Object.keys(schema.definitions.action.else.properties);
    expect(props.filter((k) => !['assign-first', 'window', 'category', 'on-failure'].includes(k))).toEqual([
      ...ACTION_KEYS,
    ]);
    expect(schema.definitions.condition.properties.operator.examples).toEqual([...OPERATOR_NAMES]);
  });
});
