import { eventFilter, eventRows } from './event-list';

describe('eventFilter', () => {
  it.each([
    [{}, { type: undefined, status: undefined, decided: undefined }, undefined],
    [
      { type: ' message.received ', status: 'processed', decided: 'unmatched' },
      { type: 'message.received', status: 'processed', decided: 'unmatched' },
      undefined,
    ],
    [{ status: '', decided: '' }, { type: undefined, status: undefined, decided: undefined }, undefined],
    [
      { status: 'done' },
      { type: undefined, status: undefined, decided: undefined },
      'Status is one of pending, processed, failed; decision one of unmatched, matched.',
    ],
    [
      { decided: ['unmatched', 'matched'] },
      { type: undefined, status: undefined, decided: undefined },
      'Status is one of pending, processed, failed; decision one of unmatched, matched.',
    ],
    [{ type: 'x'.repeat(300) }, { type: 'x'.repeat(100), status: undefined, decided: undefined }, undefined],
  ])('%j', (q, filter, error) => {
    expect(eventFilter(q)).toEqual({ filter, error });
  });
});

describe('eventRows', () => {
  const event = {
    id: 'e1',
    eventKey: 'evt_1',
    type: 'contact.updated',
    status: 'processed',
    outcome: null,
    unmatched: { set: 'v1', rules: 3 },
    attempts: 1,
    lastError: null,
    contactId: 'c1',
    receivedAt: '2026-11-28T10:00:00.000Z',
    processedAt: '2026-11-28T10:00:00.010Z',
  };

  it.each([
    ['no rule matched', event, 'muted', 'no rule matched: 3 rule(s) of rule set v1 listened'],
    [
      'a rule matched',
      { ...event, unmatched: null },
      'ok',
      'a rule matched: its runs are below and in the Runs list',
    ],
    [
      'failed',
      { ...event, status: 'failed', unmatched: null },
      'bad',
      'processing failed (see the error; replay it from Failures)',
    ],
    ['pending', { ...event, status: 'pending', unmatched: null }, 'info', 'not processed yet'],
  ])('%s', (_, e, tone, decision) => {
    const [row] = eventRows([e], new Map([['c1', { name: 'Ada', phone: '5511' }]]));
    expect(row).toEqual(
      expect.objectContaining({ href: '/console/events/e1', tone, decision, contactLabel: 'Ada (+5511)' }),
    );
  });

  it('shows an unnamed contact by id and an event without one empty', () => {
    const rows = eventRows(
      [
        { ...event, contactId: 'c9' },
        { ...event, contactId: null },
      ],
      new Map(),
    );
    expect(rows.map((r) => [r.contactLabel, r.contactHref])).toEqual([
      ['c9', '/console/contacts/c9'],
      ['', undefined],
    ]);
  });
});
