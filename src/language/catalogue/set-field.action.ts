// `- set-field: { key: plan, value: Pro }` -> PATCH /v1/contacts/{id} { customFields: { plan } }
// (docs/CRM-API.md (assumptions)): select fields take option ids, so labels are resolved here;
// MULTI_SELECT takes a list; null clears. Text values may be mustache templates.
import type { CustomField } from '@crm-rules/crm-contract';
import { findByNameOrId, UnknownNameError } from '../crm-terms/directory-match';
import { isPlainObject } from '../rules/format/problem-collector';
import type { YamlPath } from '../rules/format/yaml-source';
import { isTemplated, PROCEED, quoted, skip, text, type ActionDefinition } from './action-definition';

type FieldValue = string | string[] | null;
export type SetFieldAction = { type: 'set-field'; key: string; value: FieldValue };
export type ResolvedSetField = { type: 'set-field'; key: string; value: FieldValue };

const isFieldValue = (v: unknown): v is FieldValue =>
  v === null || typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

const empty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function sameValue(a: unknown, b: unknown): boolean {
  if (empty(a) && empty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
  return a === b;
}

/** Option labels (or ids) to option ids for select fields; text values as rendered. */
export function fieldValueFor(
  field: CustomField,
  value: FieldValue,
  render: (t: string) => string,
): FieldValue {
  if (value === null) return null;
  const option = (label: string) => {
    const found = findByNameOrId(field.options, label, (o) => [o.label]);
    if (!found)
      throw new UnknownNameError(
        'option',
        `${field.fieldKey}: ${label}`,
        field.options.map((o) => o.label),
      );
    return found.id;
  };
  if (field.type === 'SINGLE_SELECT') return option(Array.isArray(value) ? value.join(',') : render(value));
  if (field.type === 'MULTI_SELECT')
    return (Array.isArray(value) ? value : [value]).map((v) => option(render(v)));
  return Array.isArray(value) ? value.map(render).join(', ') : render(value);
}

export const setFieldAction: ActionDefinition<SetFieldAction, ResolvedSetField> = {
  type: 'set-field',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['key', 'value'],
    description: 'Set a custom field of the contact. Skipped when it already holds the value.',
    properties: {
      key: { type: 'string', minLength: 1, description: 'The custom field key (fieldKey), e.g. plan.' },
      value: {
        type: ['string', 'array', 'null'],
        items: { type: 'string' },
        description:
          'Text (mustache values allowed), an option label for select fields, a list of labels for multi-select, or null to clear.',
      },
    },
  },
  repeat: 'state-checked',
  parse(value) {
    if (!isPlainObject(value) || text(value.key) === undefined || !isFieldValue(value.value))
      return undefined;
    return { key: value.key as string, value: value.value };
  },
  templates: (a) =>
    typeof a.value === 'string'
      ? [{ path: ['value'], text: a.value }]
      : (a.value ?? []).map((v, i) => ({ path: ['value', i], text: v })),
  label: (a) => `set-field ${quoted(a.key)} to ${quoted(a.value)}`,
  // Option labels are checked against the field's options when the field is a select; templated
  // labels are only known at run time.
  names: (a) => {
    const labels: [string, YamlPath][] =
      typeof a.value === 'string'
        ? [[a.value, ['value']]]
        : (a.value ?? []).map((v, i): [string, YamlPath] => [v, ['value', i]]);
    return [
      { kind: 'custom field', name: a.key, path: ['key'] },
      ...labels
        .filter(([label]) => !isTemplated(label))
        .map(([name, path]) => ({ kind: 'option' as const, name, field: a.key, path })),
    ];
  },
  effect: {
    writes: (a) => `contact.customFields.${a.key}`,
    emits: () => ['contact.updated'],
    undoneBy: (a, other) =>
      other.type === 'set-field' &&
      other.key === a.key &&
      JSON.stringify(other.value) !== JSON.stringify(a.value)
        ? { what: `field ${quoted(a.key)}`, conflict: false }
        : undefined,
  },
  resolve: async (a, env) => {
    const field = await env.directory.resolveCustomField(a.key);
    return { type: 'set-field', key: field.fieldKey, value: fieldValueFor(field, a.value, env.render) };
  },
  guard: (r, contact) =>
    sameValue(contact.customFields?.[r.key], r.value)
      ? skip('no_change', `field ${r.key} already holds ${quoted(r.value)}`)
      : PROCEED,
  apply: (r, contact) => {
    const customFields = { ...(contact.customFields ?? {}) };
    if (empty(r.value)) delete customFields[r.key];
    else customFields[r.key] = r.value;
    return { ...contact, customFields };
  },
  execute: (r, env) =>
    env.gateway.updateContact(env.contact.id, { customFields: { [r.key]: r.value } }, env.opts),
};
