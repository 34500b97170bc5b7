// The contact of a custom source's event: the key read from the payload, the pick among results.
import type { Contact } from '@crm-rules/crm-contract';
import type { CustomSourceDeclaration } from '../../../language/rules/format/custom-sources';
import { contactKeyOf, pickContact } from './custom-contact';

const source = (by: 'id' | 'phone' | 'email'): CustomSourceDeclaration => ({
  name: 'shop',
  secret: 'S',
  schema: {},
  contact: { by, from: '/customer/key' },
});
const payload = (key: unknown) => ({ customer: { key } });
const contact = (phone: string, email: string | null) => ({ id: phone, phone, email }) as unknown as Contact;

describe('contactKeyOf', () => {
  it.each([
    ['phone', '+1 (555) 010-2030', { ok: true, by: 'phone', value: '15550102030' }],
    ['phone', 'call me', { ok: false, reason: '/customer/key is not a phone number' }],
    ['email', ' Ann@Example.com ', { ok: true, by: 'email', value: 'ann@example.com' }],
    ['email', 'ann', { ok: false, reason: '/customer/key is not an email address' }],
    [
      'id',
      '0B4F1E3A-1C2D-4E5F-8A9B-0C1D2E3F4A5B',
      { ok: true, by: 'id', value: '0b4f1e3a-1c2d-4e5f-8a9b-0c1d2e3f4a5b' },
    ],
    ['id', '42', { ok: false, reason: '/customer/key is not a contact id (uuid)' }],
    ['phone', undefined, { ok: false, reason: 'the payload has no phone at /customer/key' }],
  ] as const)('by %s from %j', (by, value, expected) => {
    expect(contactKeyOf(source(by), payload(value))).toEqual(expected);
  });
});

describe('pickContact', () => {
  const byPhone = { ok: true, by: 'phone', value: '15550102030' } as const;
  const byEmail = { ok: true, by: 'email', value: 'ann@example.com' } as const;
  it.each([
    [
      'the one exact phone',
      byPhone,
      [contact('155501020301', null), contact('15550102030', null)],
      '15550102030',
    ],
    ['an email in any case', byEmail, [contact('1', 'ANN@example.com')], '1'],
    ['no exact match', byPhone, [contact('155501020301', null)], 'no CRM contact has phone 15550102030'],
    [
      'two exact matches',
      byEmail,
      [contact('1', 'ann@example.com'), contact('2', 'ann@example.com')],
      '2 CRM contacts',
    ],
  ] as const)('%s', (_what, key, found, expected) => {
    const pick = pickContact(key, found);
    if (pick.ok) expect(pick.contact.id).toBe(expected);
    else expect(pick.reason).toContain(expected);
  });
});
