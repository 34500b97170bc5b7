// The recorded prior-messages file reads back what was written, and a bad record says where.
import { parsePriorMessages, priorMessagesText, PRIOR_MESSAGES_FORMAT } from './prior-messages';

describe('prior messages file', () => {
  it('reads back what was written', () => {
    const byContact = new Map([
      ['ana', [new Date('2026-11-02T09:00:00Z'), new Date('2026-11-01T20:00:00Z')]],
      ['bruno', [new Date('2026-11-02T08:30:00Z')]],
    ]);
    const text = priorMessagesText({ source: 'ledger', from: 'postgres://db/x', byContact }, new Date());
    expect(parsePriorMessages(text, 'p.ndjson')).toEqual(byContact);
  });

  it.each([
    ['a record without sentAt', { contactId: 'ana' }],
    ['a date that is not one', { contactId: 'ana', sentAt: ['yesterday'] }],
    ['no contact id', { sentAt: [] }],
  ])('refuses %s', (_name, record) => {
    const text = `${JSON.stringify({ format: PRIOR_MESSAGES_FORMAT })}\n${JSON.stringify(record)}\n`;
    expect(() => parsePriorMessages(text, 'p.ndjson')).toThrow('p.ndjson: record 1 is not');
  });
});
