import { decisionText, eventPage, type ShownEvent } from './event-page';

const base: ShownEvent = {
  id: '00000000-0000-4000-8000-000000000001',
  eventKey: 'evt_1',
  type: 'message.received',
  status: 'processed',
  outcome: null,
  unmatched: null,
  attempts: 1,
  lastError: null,
  contactId: 'c1',
  receivedAt: '2026-11-28T10:00:00.000Z',
  processedAt: '2026-11-28T10:00:00.050Z',
  payload: { type: 'message.received', data: { text: 'hi' } },
};

describe('decisionText', () => {
  it.each([
    [{ status: 'pending', outcome: null, unmatched: null }, 'not processed yet'],
    [
      { status: 'failed', outcome: null, unmatched: null },
      'processing failed (see the error; replay it from Failures)',
    ],
    [
      { status: 'processed', outcome: 'contact_gone', unmatched: null },
      'the CRM no longer had the contact: nothing to match',
    ],
    [
      { status: 'processed', outcome: null, unmatched: { set: 'v1', rules: 0 } },
      'no rule listened to this kind (rule set v1)',
    ],
    [
      { status: 'processed', outcome: null, unmatched: { set: 'v1', commit: 'abc123', rules: 3 } },
      'no rule matched: 3 rule(s) of rule set v1 (abc123) listened',
    ],
    [
      { status: 'processed', outcome: null, unmatched: null },
      'a rule matched: its runs are below and in the Runs list',
    ],
  ])('%j → %s', (event, text) => {
    expect(decisionText(event as Parameters<typeof decisionText>[0])).toBe(text);
  });
});

describe('eventPage', () => {
  const explain = {
    eventId: base.id,
    type: base.type,
    decision: null,
    ruleSet: 'v2',
    notes: ['judged by rule set v1; explained with the running set v2'],
    rules: [
      { ruleId: 'vip', ruleVersion: 'a1', matched: true, trace: [], lines: ['✓ contact.tags contains vip'] },
      { ruleId: 'late', ruleVersion: 'b2', matched: false, trace: [], lines: ['✗ now.hour >= 18 (was 10)'] },
    ],
  };

  it('links each matched rule to its run and says why the others did not match', () => {
    const view = eventPage(base, { name: 'Ada' }, explain, [
      { id: 'r1', ruleId: 'vip', status: 'succeeded' },
    ]);
    expect(view.rules).toEqual([
      expect.objectContaining({
        ruleId: 'vip',
        verdict: 'matched',
        tone: 'ok',
        run: { href: '/console/runs/r1', status: 'succeeded' },
      }),
      expect.objectContaining({ ruleId: 'late', verdict: 'did not match', tone: 'muted', run: undefined }),
    ]);
    expect(view.contactLabel).toBe('Ada');
    expect(view.notes).toEqual(explain.notes);
    expect(view.noRules).toBe(false);
  });

  it('shows the event without an explain when it could not be computed', () => {
    const view = eventPage(base, undefined, undefined, [], 'CRM answered 404');
    expect(view.explainError).toBe('CRM answered 404');
    expect(view.rules).toEqual([]);
    expect(view.noRules).toBe(false);
    expect(view.contactLabel).toBe('c1');
  });

  it('says no rule listens when the running set has none for the kind', () => {
    const view = eventPage({ ...base, contactId: null }, undefined, { ...explain, rules: [] }, []);
    expect(view.noRules).toBe(true);
    expect(view.contactHref).toBeUndefined();
  });
});
