// Custom fields (docs/CRM-API.md §4.6 and A13): list, create, update, archive, restore,
// delete. A field holding data on any contact cannot be deleted (409): archive it instead.
import { randomUUID } from 'node:crypto';
import type { CrmErrorDetail, CustomField, CustomFieldOption } from '@crm-rules/crm-contract';
import { arrayOf, detail, enumCheck, objectOf, uuidCheck } from '@crm-rules/crm-contract';
import { fieldHoldsData } from './custom-field-values';
import { slugKey } from './fixture-builder';
import { checkBody, nullable, str } from './input-checks';
import { mustFind } from './lookups';
import { assertValid, conflict } from './sandbox-error';
import type { OpContext } from './sandbox-state';

export const FIELD_TYPES = ['TEXT', 'SINGLE_SELECT', 'MULTI_SELECT', 'URL'] as const;
export const CUSTOM_FIELD_LIST_QUERY = { status: { kind: 'enum', values: ['ACTIVE', 'ARCHIVED'] } } as const;

type OptionInput = { id?: string; label: string; color?: string };
const OPTION = (withId: boolean) =>
  objectOf(
    {
      ...(withId ? { id: uuidCheck } : {}),
      label: str({ min: 1, max: 100 }),
      color: str({ min: 1, max: 32 }),
    },
    ['label'],
  );
const CREATE_SHAPE = {
  name: str({ min: 1, max: 100 }),
  type: enumCheck(FIELD_TYPES),
  description: nullable(str({ max: 1000 })),
  options: arrayOf(OPTION(false)),
};
const UPDATE_SHAPE = {
  name: str({ min: 1, max: 100 }),
  description: nullable(str({ max: 1000 })),
  options: arrayOf(OPTION(true)),
};

const copy = (f: CustomField): CustomField => ({ ...f, options: f.options.map((o) => ({ ...o })) });
const isSelect = (type: string) => type === 'SINGLE_SELECT' || type === 'MULTI_SELECT';

export function listCustomFields(ctx: OpContext, status?: 'ACTIVE' | 'ARCHIVED'): { data: CustomField[] } {
  return { data: [...ctx.org.customFields.values()].filter((f) => !status || f.status === status).map(copy) };
}

function uniqueKey(ctx: OpContext, name: string): string {
  const base = slugKey(name);
  const taken = new Set([...ctx.org.customFields.values()].map((f) => f.fieldKey));
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
  return key;
}

export function createCustomField(ctx: OpContext, body: unknown): CustomField {
  const input = checkBody<{
    name: string;
    type: CustomField['type'];
    description?: string | null;
    options?: OptionInput[];
  }>(body, CREATE_SHAPE, ['name', 'type']);
  if (input.options?.length && !isSelect(input.type))
    assertValid([
      detail('options', 'invalid_type', `Options are only allowed on SINGLE_SELECT and MULTI_SELECT fields`),
    ]);
  const now = ctx.now().toISOString();
  const field: CustomField = {
    id: randomUUID(),
    name: input.name,
    fieldKey: uniqueKey(ctx, input.name),
    type: input.type,
    description: input.description ?? null,
    status: 'ACTIVE',
    options: (input.options ?? []).map((o, i) => ({
      id: randomUUID(),
      label: o.label,
      color: o.color ?? '#9e9e9e',
      sortOrder: i,
    })),
    createdAt: now,
    updatedAt: now,
  };
  ctx.org.customFields.set(field.id, field);
  return copy(field);
}

/** The given options replace the set: with id = keep/update, without id = new, absent = removed. */
function nextOptions(ctx: OpContext, field: CustomField, options: OptionInput[]): CustomFieldOption[] {
  const details: CrmErrorDetail[] = [];
  const current = new Map(field.options.map((o) => [o.id, o]));
  const next = options.map((o, i) => {
    if (o.id && !current.has(o.id))
      details.push(
        detail(
          `options[${i}].id`,
          'invalid_enum_value',
          `Field ${field.fieldKey} has no option with id '${o.id}'`,
        ),
      );
    const prev = o.id ? current.get(o.id) : undefined;
    return {
      id: prev?.id ?? randomUUID(),
      label: o.label,
      color: o.color ?? prev?.color ?? '#9e9e9e',
      sortOrder: i,
    };
  });
  assertValid(details);
  const kept = new Set(next.map((o) => o.id));
  const removedInUse = field.options
    .filter((o) => !kept.has(o.id))
    .filter((o) =>
      [...ctx.org.contacts.values()].some((c) => {
        const v = c.customFields[field.fieldKey];
        return v === o.id || (Array.isArray(v) && v.includes(o.id));
      }),
    );
  if (removedInUse.length)
    throw conflict(
      'custom_field_option_in_use',
      `Option(s) ${removedInUse.map((o) => `'${o.label}'`).join(', ')} of field ${field.fieldKey} hold data on contacts and cannot be removed`,
    );
  return next;
}

export function updateCustomField(ctx: OpContext, id: string, body: unknown): CustomField {
  const field = mustFind(ctx.org, 'customFields', id);
  const input = checkBody<{ name?: string; description?: string | null; options?: OptionInput[] }>(
    body,
    UPDATE_SHAPE,
  );
  if (input.options?.length && !isSelect(field.type))
    assertValid([
      detail('options', 'invalid_type', `Options are only allowed on SINGLE_SELECT and MULTI_SELECT fields`),
    ]);
  const options = input.options ? nextOptions(ctx, field, input.options) : field.options;
  Object.assign(field, {
    name: input.name ?? field.name,
    description: input.description === undefined ? field.description : input.description,
    options,
    updatedAt: ctx.now().toISOString(),
  });
  return copy(field);
}

export function setCustomFieldStatus(ctx: OpContext, id: string, status: 'ACTIVE' | 'ARCHIVED'): CustomField {
  const field = mustFind(ctx.org, 'customFields', id);
  if (field.status !== status) Object.assign(field, { status, updatedAt: ctx.now().toISOString() });
  return copy(field);
}

export function deleteCustomField(ctx: OpContext, id: string): { success: true; id: string } {
  const field = mustFind(ctx.org, 'customFields', id);
  if (fieldHoldsData(ctx.org, field.fieldKey))
    throw conflict(
      'custom_field_in_use',
      `Custom field ${field.fieldKey} holds data on at least one contact and cannot be deleted; archive it instead`,
    );
  ctx.org.customFields.delete(id);
  return { success: true, id };
}
