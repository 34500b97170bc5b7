// Values written to a contact's customFields ({ fieldKey: value }), checked against the
// organization's custom fields: TEXT a string, URL an http(s) URL, SINGLE_SELECT one
// option id, MULTI_SELECT an array of option ids; null clears. Only ACTIVE fields take writes.
import type { CrmErrorDetail, CustomField } from '@crm-rules/crm-contract';
import { detail, expectType } from '@crm-rules/crm-contract';
import { str, urlCheck } from './input-checks';
import type { OrgState } from './sandbox-state';

function checkValue(field: CustomField, value: unknown, param: string): CrmErrorDetail[] {
  const optionIds = new Set(field.options.map((o) => o.id));
  const optionCheck = (v: unknown, p: string): CrmErrorDetail[] => {
    const wrong = expectType(v, p, 'string');
    if (wrong) return [wrong];
    return optionIds.has(v as string)
      ? []
      : [detail(p, 'invalid_enum_value', `Unknown option id '${String(v)}' of field '${field.fieldKey}'`)];
  };
  switch (field.type) {
    case 'TEXT':
      return str({ max: 10_000 })(value, param, {});
    case 'URL':
      return urlCheck()(value, param, {});
    case 'SINGLE_SELECT':
      return optionCheck(value, param);
    case 'MULTI_SELECT': {
      const wrong = expectType(value, param, 'array');
      if (wrong) return [wrong];
      return (value as unknown[]).flatMap((v, i) => optionCheck(v, `${param}[${i}]`));
    }
  }
}

/** Details for every bad entry of a customFields object; [] when it can be applied. */
export function checkCustomFieldValues(
  org: OrgState,
  values: unknown,
  param = 'customFields',
): CrmErrorDetail[] {
  const wrong = expectType(values, param, 'object');
  if (wrong) return [wrong];
  const byKey = new Map([...org.customFields.values()].map((f) => [f.fieldKey, f]));
  const out: CrmErrorDetail[] = [];
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    const field = byKey.get(key);
    const p = `${param}.${key}`;
    if (!field) out.push(detail(p, 'unrecognized_keys', `No custom field with fieldKey '${key}'`));
    else if (field.status !== 'ACTIVE')
      out.push(detail(p, 'invalid_type', `Custom field '${key}' is archived`));
    else if (value !== null) out.push(...checkValue(field, value, p));
  }
  return out;
}

/** Applies checked values; returns whether anything changed. */
export function applyCustomFieldValues(
  target: Record<string, unknown>,
  values: Record<string, unknown>,
): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(values)) {
    const empty = value === null || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (key in target) {
        delete target[key];
        changed = true;
      }
    } else if (JSON.stringify(target[key]) !== JSON.stringify(value)) {
      target[key] = Array.isArray(value) ? [...value] : value;
      changed = true;
    }
  }
  return changed;
}

export function fieldHoldsData(org: OrgState, fieldKey: string): boolean {
  for (const c of org.contacts.values()) {
    const v = c.customFields[fieldKey];
    if (v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)) return true;
  }
  return false;
}
