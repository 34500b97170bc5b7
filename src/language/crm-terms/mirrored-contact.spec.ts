import type { Contact } from '@crm-rules/crm-contract';
import { mirrorProblem, toContact, toMirroredContact } from './mirrored-contact';
import { countryOfPhone } from './phone-country';

const contact: Contact = {
  id: 'c0000000-0000-4000-8000-000000000001',
  name: 'Maria',
  phone: '5511987654321',
  email: 'maria@example.com',
  avatar: null,
  notes: null,
  status: 'active',
  isBlocked: false,
  sourceMethod: 'IMPORT',
  assigneeId: null,
  stageId: '5A000000-0000-4000-8000-000000000001',
  tags: [{ id: '7A000000-0000-4000-8000-000000000002', name: 'vip', color: '#e91e63' }],
  customFields: { plan: 'x' },
  createdAt: '2025-01-10T00:00:00.123Z',
  updatedAt: '2025-01-11T00:00:00Z',
  lastInteractionAt: null,
};

describe('toMirroredContact', () => {
  it('flattens tag ids, derives the country and parses dates', () => {
    const m = toMirroredContact(contact);
    expect(m.tagIds).toEqual(['7a000000-0000-4000-8000-000000000002']);
    expect(m.stageId).toBe('5a000000-0000-4000-8000-000000000001');
    expect(m.country).toBe('BR');
    expect(m.createdAt.toISOString()).toBe('2025-01-10T00:00:00.123Z');
    expect(m.lastInteractionAt).toBeNull();
  });

  it('round-trips to the API shape', () => {
    const back = toContact(toMirroredContact(contact));
    expect(back).toMatchObject({
      id: contact.id,
      phone: contact.phone,
      sourceMethod: 'IMPORT',
      customFields: { plan: 'x' },
    });
    expect(back.updatedAt).toBe('2025-01-11T00:00:00.000Z');
  });

  it('refuses a contact whose createdAt is not a date', () => {
    expect(() => toMirroredContact({ ...contact, createdAt: 'soon' })).toThrow(/createdAt is not a date/);
  });
});

describe('countryOfPhone', () => {
  it.each([
    ['5511987654321', 'BR'],
    ['14155552671', 'US'],
    ['16135550123', 'CA'],
    ['351912345678', 'PT'],
    ['4915112345678', 'DE'],
    ['999999', null],
    ['', null],
  ])('%s is %s', (phone, country) => {
    expect(countryOfPhone(phone)).toBe(country);
  });
});

describe('mirrorProblem', () => {
  const ok = {
    id: 'c1',
    name: 'Ana',
    phone: '5511987654321',
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-02T00:00:00Z',
  } as unknown as Contact;
  it.each([
    ['a complete contact', {}, null],
    ['unknown members', { favouriteColour: 'teal', nested: { deep: [1, 2] } }, null],
    ['no updatedAt (createdAt stands in)', { updatedAt: undefined }, null],
    ['tags as objects', { tags: [{ id: 'T1', name: 'vip', color: '#fff' }] }, null],
    ['tags not a list (ignored)', { tags: 'vip' }, null],
    ['no createdAt', { createdAt: undefined }, 'contact c1: createdAt is not a date (undefined)'],
    [
      'a createdAt that is not a date',
      { createdAt: 'yesterday' },
      'contact c1: createdAt is not a date ("yesterday")',
    ],
    ['a bad updatedAt', { updatedAt: 'soon' }, 'contact c1: updatedAt is not a date ("soon")'],
    [
      'a bad lastInteractionAt',
      { lastInteractionAt: 'never' },
      'contact c1: lastInteractionAt is not a date ("never")',
    ],
    [
      'a year Postgres reads differently',
      { createdAt: '+012025-01-01T00:00:00Z' },
      /createdAt is out of range/,
    ],
    ['year zero', { createdAt: '0000-01-01T00:00:00Z' }, /createdAt is out of range/],
    ['tags that are not objects', { tags: ['vip', null] }, 'contact c1: tags must be a list of objects'],
  ])('%s → %s', (_, change, expected) => {
    const problem = mirrorProblem({ ...ok, ...change } as Contact);
    if (expected instanceof RegExp) expect(problem).toMatch(expected);
    else expect(problem).toBe(expected);
  });
});
