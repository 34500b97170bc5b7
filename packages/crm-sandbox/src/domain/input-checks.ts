// Body and path checks of the sandbox, in the vocabulary of segment-filter-constraints.ts
// (invalid_type, invalid_string, too_small, ...). Bodies are strict: unknown members are
// refused, so a client sending a misspelt member learns it at once.
import type { CrmErrorDetail } from '@crm-rules/crm-contract';
import { checkString, detail, expectType, isUuid, objectOf, type Check } from '@crm-rules/crm-contract';
import { assertValid } from './sandbox-error';

// Contact phone: digits only, with country code, no '+' (E.164 without the plus: 7 to 15 digits).
export const PHONE_RE = /^[1-9]\d{6,14}$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function str(
  rules: { min?: number; max?: number; pattern?: RegExp; patternName?: string } = {},
): Check {
  return (value, param) => checkString(value, param, rules);
}

export function nullable(check: Check): Check {
  return (value, param, opts) => (value === null ? [] : check(value, param, opts));
}

export function int(rules: { min?: number; max?: number } = {}): Check {
  return (value, param) => {
    const wrongType = expectType(value, param, 'number');
    if (wrongType) return [wrongType];
    if (!Number.isInteger(value)) return [detail(param, 'invalid_type', 'Expected integer, received float')];
    if (rules.min !== undefined && (value as number) < rules.min)
      return [detail(param, 'too_small', `Number must be greater than or equal to ${rules.min}`)];
    if (rules.max !== undefined && (value as number) > rules.max)
      return [detail(param, 'too_big', `Number must be less than or equal to ${rules.max}`)];
    return [];
  };
}

export const phoneCheck: Check = str({
  pattern: PHONE_RE,
  patternName: 'phone: 7 to 15 digits with country code, no +',
});
export const emailCheck: Check = str({ max: 254, pattern: EMAIL_RE, patternName: 'email' });

export function urlCheck(protocols: readonly string[] = ['http:', 'https:']): Check {
  return (value, param) => {
    const wrong = checkString(value, param, { min: 1, max: 2048 });
    if (wrong.length) return wrong;
    try {
      if (protocols.includes(new URL(value as string).protocol)) return [];
    } catch {
      // fall through
    }
    return [
      detail(param, 'invalid_string', `Invalid url: expected an absolute ${protocols.join(' or ')} URL`),
    ];
  };
}

/** Checks a JSON body against a strict shape and throws validation_failed with every failure. */
export function checkBody<T>(
  body: unknown,
  shape: Record<string, Check>,
  required: readonly string[] = [],
): T {
  assertValid(objectOf(shape, required)(body ?? {}, '', {}));
  return (body ?? {}) as T;
}

/** Path parameters are uuids (docs/CRM-API.md §4 rule 2). */
export function checkPathIds(ids: Record<string, string>): void {
  const details: CrmErrorDetail[] = [];
  for (const [param, value] of Object.entries(ids)) {
    if (!isUuid(value)) details.push(detail(param, 'invalid_string', 'Invalid uuid'));
  }
  assertValid(details);
}
