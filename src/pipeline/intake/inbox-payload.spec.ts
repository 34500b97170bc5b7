import { contactIdOf, storableJson } from './inbox-payload';

const UUID = 'c0000000-0000-4000-8000-000000000001';

describe('storableJson', () => {
  it.each([
    ['plain text is stored as is', '{"a":"b"}', '{"a":"b"}', null],
    [
      'a NUL escape becomes U+FFFD, the exact text is kept',
      '{"a":"x\\u0000y"}',
      '{"a":"x\\ufffdy"}',
      '{"a":"x\\u0000y"}',
    ],
    ['every NUL escape', '["\\u0000","\\u0000"]', '["\\ufffd","\\ufffd"]', '["\\u0000","\\u0000"]'],
    ['an escaped backslash before u0000 is not a NUL', '{"a":"\\\\u0000"}', '{"a":"\\\\u0000"}', null],
    [
      'an escaped backslash, then a NUL escape',
      '{"a":"\\\\\\u0000"}',
      '{"a":"\\\\\\ufffd"}',
      '{"a":"\\\\\\u0000"}',
    ],
    ['other escapes are untouched', '{"a":"\\u0001\\n"}', '{"a":"\\u0001\\n"}', null],
  ])('%s', (_name, text, json, raw) => {
    expect(storableJson(text)).toEqual({ json, raw });
    // What jsonb will hold parses to what was sent, with U+0000 shown as U+FFFD.
    const nulShown = (_key: string, v: unknown) =>
      typeof v === 'string' ? v.split(String.fromCharCode(0)).join('\ufffd') : v;
    expect(JSON.parse(json)).toEqual(JSON.parse(text, nulShown));
  });
});

describe('contactIdOf', () => {
  it.each([
    ['contact event', { type: 'contact.updated', data: { id: UUID } }, { ok: true, contactId: UUID }],
    [
      'upper-case uuid, normalised',
      { type: 'contact.created', data: { id: UUID.toUpperCase() } },
      { ok: true, contactId: UUID },
    ],
    [
      'message event',
      { type: 'message.created', data: { id: 'm1', contactId: UUID } },
      { ok: true, contactId: UUID },
    ],
    ['no data', { type: 'contact.created' }, { ok: true, contactId: null }],
    ['no contact id', { type: 'broadcast.completed', data: { id: 'b1' } }, { ok: true, contactId: null }],
    [
      'a path segment as contact id',
      { type: 'contact.updated', data: { id: '..' } },
      { ok: false, reason: 'data.id must be a uuid' },
    ],
    [
      'a path as contact id',
      { type: 'message.created', data: { contactId: `${UUID}/../x` } },
      { ok: false, reason: 'data.contactId must be a uuid' },
    ],
    [
      'a number as contact id',
      { type: 'contact.deleted', data: { id: 7 } },
      { ok: false, reason: 'data.id must be a uuid' },
    ],
  ])('%s', (_name, payload, expected) => {
    expect(contactIdOf(payload as Record<string, unknown>)).toEqual(expected);
  });
});
