// The contacts file: what the engine's export and `snapshot --contacts` write reads back as the
// same mirrored contacts, the first format (@1) still reads, and a bad file says where.
import type { Contact } from '@crm-rules/crm-contract';
import { toMirroredContact, type MirroredContact } from '../../language/crm-terms/mirrored-contact';
import { contactLine, contactLineFromCrm, contactsHeader, parseContactsFile } from './contacts-file';
import { ndjsonLine } from './ndjson';

const TAKEN = new Date('2026-11-23T10:00:00.000Z');
const crmContact = (over: Partial<Contact> = {}): Contact => ({
  id: 'c0000000-0000-4000-8000-000000000001',
  name: 'Maria',
  phone: '+55 11 98765-4321',
  email: 'maria@example.com',
  avatar: 'https://x/a.png',
  notes: 'likes calls',
  status: 'active',
  isBlocked: false,
  sourceMethod: 'MSG_API_AD',
  assigneeId: 'A0000000-0000-4000-8000-000000000001',
  stageId: null,
  tags: [{ id: '7A000000-0000-4000-8000-000000000002', name: 'vip', color: '#e91e63' }],
  customFields: { plan: 'opt-pro', interests: ['a', 'b'] },
  createdAt: '2025-01-10T00:00:00.123Z',
  updatedAt: '2025-06-01T00:00:00.000Z',
  lastInteractionAt: null,
  ...over,
});

/** What a reader gets back: no avatar, notes or tag colours (nothing reads them offline). */
const asRead = (m: MirroredContact): MirroredContact => ({
  ...m,
  avatar: null,
  notes: null,
  tags: m.tags.map((t) => ({ ...t, color: '' })),
});

const contacts = [
  crmContact(),
  crmContact({
    id: 'c2',
    status: 'archived',
    isBlocked: true,
    tags: [],
    lastInteractionAt: '2025-05-01T00:00:00Z',
  }),
  crmContact({
    id: 'c3',
    customFields: undefined,
    email: null,
    stageId: '5A000000-0000-4000-8000-000000000001',
  }),
];

describe('contacts file', () => {
  const v1Line = (c: Contact): string => {
    const {
      avatar: _a,
      notes: _n,
      tags,
      createdAt,
      updatedAt,
      lastInteractionAt,
      ...m
    } = toMirroredContact(c);
    return ndjsonLine({
      ...m,
      tags: tags.map((t) => ({ id: t.id, name: t.name })),
      createdAt: createdAt.toISOString(),
      updatedAt: updatedAt.toISOString(),
      lastInteractionAt: lastInteractionAt?.toISOString() ?? null,
    });
  };
  it.each([
    [
      'the compact format (@2) the engine and snapshot write',
      contactsHeader('test', TAKEN),
      contactLineFromCrm,
    ],
    [
      'the first format (@1: an object per line, ISO dates)',
      ndjsonLine({ format: 'crm-rules/contacts@1', takenAt: TAKEN.toISOString(), source: 'test' }),
      v1Line,
    ],
  ])('%s reads back as the mirrored contacts', (_name, header, line) => {
    const file = parseContactsFile(header + contacts.map(line).join(''), 'c.ndjson');
    expect(file.takenAt).toEqual(TAKEN);
    expect(file.source).toBe('test');
    expect(file.contacts).toEqual(contacts.map((c) => asRead(toMirroredContact(c))));
  });

  it('finds columns by the names in the header, whatever their order and extras', () => {
    const m = toMirroredContact(crmContact());
    const header = ndjsonLine({
      format: 'crm-rules/contacts@2',
      columns: ['createdAt', 'later', 'id', 'name'],
    });
    const file = parseContactsFile(header + ndjsonLine([m.createdAt.getTime(), 'x', m.id, m.name]), 'c');
    expect(file.contacts[0]).toMatchObject({ id: m.id, name: m.name, createdAt: m.createdAt, tagIds: [] });
  });

  it('writes a line per contact, without keys', () => {
    const line = contactLine(toMirroredContact(crmContact()));
    expect(line.endsWith('\n')).toBe(true);
    expect(Array.isArray(JSON.parse(line))).toBe(true);
  });

  it.each([
    ['{"format":"crm-rules/contacts@2"}\n["x"]\n', 'c:1: a crm-rules/contacts@2 header lists its columns'],
    [contactsHeader('t', TAKEN) + '{"id":"x"}\n', 'c:2: expected a JSON array'],
    [contactsHeader('t', TAKEN) + '["x"]\n', 'c: record 1 is not a contact (id and createdAt are required)'],
    [contactsHeader('t', TAKEN) + '[\n', 'c:2: not JSON'],
    [
      '{"format":"crm-rules/events@1"}\n',
      'c:1: expected a crm-rules/contacts@2 or crm-rules/contacts@1 header line',
    ],
    ['', 'c: empty'],
  ])('refuses a bad file, saying where: %#', (text, message) => {
    expect(() => parseContactsFile(text, 'c')).toThrow(message);
  });
});
